import AuthCore
import HTTPServer

/// A refused admin API key: one 401 for every kind of bad key (RFC 6750 §3.1's challenge), 403 with the scope
/// the route needs for a live key without it.
extension AdminAPIKeyRefusal: HTTPResponseError {
    public var status: HTTPStatus {
        switch self {
        case .invalidKey: .unauthorized
        case .insufficientScope: .forbidden
        }
    }

    public var code: String {
        switch self {
        case .invalidKey: "invalid_api_key"
        case .insufficientScope: "insufficient_scope"
        }
    }

    public var message: String {
        switch self {
        case .invalidKey: "This endpoint needs Authorization: Bearer with a live admin API key."
        case .insufficientScope(let scope): "The API key lacks the scope this endpoint needs: \(scope.rawValue)."
        }
    }

    public var headers: HTTPHeaders {
        switch self {
        case .invalidKey: ["WWW-Authenticate": "Bearer"]
        case .insufficientScope(let scope):
            ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope=""# + scope.rawValue + #"""#]
        }
    }
}

/// latchctl's refusals as the admin API's answers. Messages name no address: the caller named the user by id.
extension AdminOperations.Failure: HTTPResponseError {
    public var status: HTTPStatus {
        switch self {
        case .unknownUser, .unknownUserID, .unknownSession, .unknownPasskey, .unknownIdentity, .unknownMail: .notFound
        case .emailTaken, .userDisabled, .alreadyConfirmed, .mailUnrecoverable, .mailNotWaiting: .conflict
        case .invalidLifetime: .unprocessableContent
        }
    }

    public var code: String {
        switch self {
        case .unknownUser, .unknownUserID: "user_not_found"
        case .unknownSession: "session_not_found"
        case .unknownPasskey: "passkey_not_found"
        case .unknownIdentity: "identity_not_found"
        case .emailTaken: "email_taken"
        case .userDisabled: "user_disabled"
        case .alreadyConfirmed: "already_confirmed"
        case .invalidLifetime: "invalid_request"
        case .unknownMail: "mail_not_found"
        case .mailUnrecoverable: "mail_unrecoverable"
        case .mailNotWaiting: "mail_not_waiting"
        }
    }

    public var message: String {
        switch self {
        case .unknownUser, .unknownUserID: "No user has this id."
        case .unknownSession: "The user has no such session."
        case .unknownPasskey: "The user has no such passkey."
        case .unknownIdentity: "The user has no such linked identity."
        case .emailTaken: "Another account has this address."
        case .userDisabled: "The account is disabled; enable it first."
        case .alreadyConfirmed: "The address is confirmed already; a reset link may be what the user needs."
        case .invalidLifetime: "The link lifetime must be positive."
        case .unknownMail: "No mail in the outbox has this id."
        case .mailUnrecoverable: "The mail was given up and its content scrubbed; issue a new link instead."
        case .mailNotWaiting: "The mail is not waiting for a retry: sent, due already, or being sent right now."
        }
    }
}

/// The admin API's refusals of a request's query: 400, naming the parameter, never its value.
enum AdminQueryError: HTTPResponseError, Hashable {
    /// A parameter the endpoint does not take, or one given twice.
    case unknownParameter(expected: [String])
    case repeatedParameter(String)
    /// A parameter whose value is not of its form (`limit` out of range, a date that is no RFC 3339 instant).
    case invalidParameter(String)
    /// A `cursor` this server did not print.
    case invalidCursor

    var status: HTTPStatus { .badRequest }

    var code: String {
        switch self {
        case .invalidCursor: "invalid_cursor"
        default: "invalid_query"
        }
    }

    var message: String {
        switch self {
        case .unknownParameter(let expected):
            expected.isEmpty ? "This endpoint takes no query parameters."
                : "unknown query parameter; this endpoint takes only: \(expected.joined(separator: ", "))"
        case .repeatedParameter(let name): "query parameter given more than once: \(name)"
        case .invalidParameter(let name): "invalid query parameter: \(name)"
        case .invalidCursor: "The cursor is not one this API returned; start again without it."
        }
    }
}
