import AuthCore
import HTTPServer

/// The one place where errors become HTTP answers (openapi.yaml): AuthCore's rules, LatchHTTP's request checks,
/// HTTPServer's JSON body errors, and everything else as a generic 503.
///
/// `token_expired` is 400, not 410: the statuses clients handle are those of openapi.yaml, and 410 is not among them;
/// the code, not the status, tells the client to ask for a new mail.
public enum APIErrorMapper {
    /// `WWW-Authenticate` for a request without bearer credentials (RFC 6750 §3: no error code then).
    public static let bearerChallenge = "Bearer"
    /// `WWW-Authenticate` for a bad, expired or revoked access or refresh token (RFC 6750 §3.1).
    public static let invalidTokenChallenge = #"Bearer error="invalid_token""#

    /// The answer for `error` as a ready response (JSON body, `Retry-After`, `WWW-Authenticate`).
    public static func response(for error: any Error) -> HTTPResponse {
        // A handler's own HTTPError already is an answer, with its extra header.
        if let error = error as? HTTPError { return error.response }
        return response(for: describe(error))
    }

    /// The answer for an already described error.
    public static func response(for description: APIErrorDescription) -> HTTPResponse {
        let body = APIErrorBody(code: description.code, message: description.message, reason: description.reason)
        var response = APIJSON.response(body, status: description.status)
        if let seconds = description.retryAfter {
            response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
        }
        if let challenge = description.wwwAuthenticate {
            response.headers.replaceOrAdd(name: "WWW-Authenticate", value: challenge)
        }
        return response
    }

    /// Status, code, message and headers for `error`.
    public static func describe(_ error: any Error) -> APIErrorDescription {
        switch error {
        case let error as AuthError: describe(error)
        case let error as APIError: describe(error)
        case let error as JSONBodyError: describe(error)
        case let error as HTTPError:
            APIErrorDescription(status: error.status, code: error.code, message: error.message)
        default: serviceUnavailable
        }
    }

    /// The answer for a failure outside the rules (database down, store bug): generic on purpose, since the
    /// underlying error may name a table, a query or a host.
    public static let serviceUnavailable = APIErrorDescription(
        status: .serviceUnavailable, code: "service_unavailable",
        message: "The service is temporarily unavailable; try again later.", isExpected: false
    )

    static func describe(_ error: AuthError) -> APIErrorDescription {
        let status: HTTPStatus
        var challenge: String?
        switch error {
        case .invalidEmail, .weakPassword: status = .unprocessableContent
        case .invalidCredentials: status = .unauthorized
        case .emailNotConfirmed, .userDisabled: status = .forbidden
        case .invalidToken, .tokenExpired, .invalidCode: status = .badRequest
        case .tokenUsed, .tokenSuperseded, .alreadyConfirmed: status = .conflict
        case .rateLimited: status = .tooManyRequests
        case .invalidSession, .sessionExpired, .refreshTokenReused, .invalidAccessToken:
            status = .unauthorized
            challenge = invalidTokenChallenge
        }
        return APIErrorDescription(status: status, code: error.code, message: error.message, reason: error.reason,
                                   retryAfter: error.retryAfter, wwwAuthenticate: challenge)
    }

    static func describe(_ error: APIError) -> APIErrorDescription {
        switch error {
        case .invalidField(let field):
            invalidRequest("missing or invalid field: \(field)")
        case .fieldTooLong(let field, let maxBytes):
            invalidRequest("field too long: \(field) (at most \(maxBytes) bytes)")
        case .fieldHasNUL(let field):
            invalidRequest("field must not contain NUL characters: \(field)")
        case .missingToken:
            APIErrorDescription(status: .unauthorized, code: "missing_token",
                                message: "This endpoint needs an Authorization: Bearer header.",
                                wwwAuthenticate: bearerChallenge)
        case .malformedToken:
            describe(AuthError.invalidAccessToken)
        case .notReady:
            APIErrorDescription(status: .serviceUnavailable, code: "not_ready",
                                message: "The service is not ready to serve requests.")
        }
    }

    static func describe(_ error: JSONBodyError) -> APIErrorDescription {
        switch error {
        case .invalidField(let field): describe(APIError.invalidField(field))
        case .unsupportedMediaType:
            APIErrorDescription(status: .unsupportedMediaType, code: "unsupported_media_type",
                                message: "Content-Type must be application/json.")
        case .emptyBody:
            APIErrorDescription(status: .badRequest, code: "invalid_json", message: "The request body is empty.")
        case .malformed:
            APIErrorDescription(status: .badRequest, code: "invalid_json",
                                message: "The request body is not valid JSON.")
        }
    }

    private static func invalidRequest(_ message: String) -> APIErrorDescription {
        APIErrorDescription(status: .unprocessableContent, code: "invalid_request", message: message)
    }
}
