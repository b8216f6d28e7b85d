import AuthCore
import HTTPServer

/// LatchHTTP's own refusals, raised before AuthCore is asked, each with its answer.
///
/// Cases name a field at most, never a value from the request (which may be a password or a token).
public enum APIError: HTTPResponseError, Hashable, Sendable {
    /// A field of the JSON body is missing, null or of the wrong type. 422 `invalid_request`.
    case invalidField(String)
    /// A string field is longer than `maxBytes` UTF-8 bytes (refused before any hashing). 422 `invalid_request`.
    case fieldTooLong(String, maxBytes: Int)
    /// A string field is longer than `maxCharacters` characters (Unicode code points, as openapi.yaml's
    /// `maxLength` counts them; refused before any hashing). 422 `invalid_request`.
    case fieldTooManyCharacters(String, maxCharacters: Int)
    /// The body has a field the endpoint does not take (openapi.yaml: `additionalProperties: false`). Names the
    /// fields it takes, never the one sent (which may be anything). 422 `invalid_request`.
    case unknownField(expected: [String])
    /// A string field holds a NUL character, which no credential needs and PostgreSQL text cannot store.
    /// 422 `invalid_request`.
    case fieldHasNUL(String)
    /// A string field that openapi.yaml gives `minLength: 1` is empty (a name: leave it out for the default).
    /// 422 `invalid_request`.
    case fieldEmpty(String)
    /// No `Authorization: Bearer …` header. 401 `missing_token`.
    case missingToken
    /// An `Authorization` header with the Bearer scheme but not the RFC 6750 shape (or sent twice).
    /// Answered like a forged one: 401 `invalid_token`.
    case malformedToken
    /// The readiness check failed (database unreachable, draining). 503 `not_ready`.
    case notReady
    /// A failure outside the rules (database down, a store bug): generic on purpose, since the underlying error
    /// may name a table, a query or a host. 503 `service_unavailable`.
    case serviceUnavailable

    public var status: HTTPStatus {
        switch self {
        case .invalidField, .fieldTooLong, .fieldTooManyCharacters, .unknownField, .fieldHasNUL, .fieldEmpty:
            .unprocessableContent
        case .missingToken: .unauthorized
        case .malformedToken: AuthError.invalidAccessToken.status
        case .notReady, .serviceUnavailable: .serviceUnavailable
        }
    }

    public var code: String {
        switch self {
        case .invalidField, .fieldTooLong, .fieldTooManyCharacters, .unknownField, .fieldHasNUL, .fieldEmpty:
            "invalid_request"
        case .missingToken: "missing_token"
        case .malformedToken: AuthError.invalidAccessToken.code
        case .notReady: "not_ready"
        case .serviceUnavailable: "service_unavailable"
        }
    }

    public var message: String {
        switch self {
        case .invalidField(let field): "missing or invalid field: \(field)"
        case .fieldTooLong(let field, let maxBytes): "field too long: \(field) (at most \(maxBytes) bytes)"
        case .fieldTooManyCharacters(let field, let maxCharacters):
            "field too long: \(field) (at most \(maxCharacters) characters)"
        case .unknownField(let expected): "unknown field; this endpoint takes only: \(expected.joined(separator: ", "))"
        case .fieldHasNUL(let field): "field must not contain NUL characters: \(field)"
        case .fieldEmpty(let field): "field must not be empty: \(field)"
        case .missingToken: "This endpoint needs an Authorization: Bearer header."
        case .malformedToken: AuthError.invalidAccessToken.message
        case .notReady: "The service is not ready to serve requests."
        case .serviceUnavailable: "The service is temporarily unavailable; try again later."
        }
    }

    /// A request without bearer credentials gets the bare challenge (RFC 6750 §3: no error code then).
    public var headers: HTTPHeaders {
        switch self {
        case .missingToken: ["WWW-Authenticate": "Bearer"]
        case .malformedToken: AuthError.invalidAccessToken.headers
        default: HTTPHeaders()
        }
    }
}
