import AuthCore
import HTTPServer

/// AuthCore's refusals, each with its HTTP status once. AuthCore knows nothing of HTTP, so its errors get their
/// status here (AuthCore's `code`, `message` and `reason` are already the answer's).
///
/// `token_expired` is 400, not 410: the statuses clients handle are those of openapi.yaml, and 410 is not among
/// them; the code, not the status, tells the client to ask for a new mail.
extension AuthError: HTTPResponseError {
    public var status: HTTPStatus {
        switch self {
        case .invalidEmail, .weakPassword, .emailUnchanged, .unsupportedLocale: .unprocessableContent
        case .invalidCredentials, .invalidSession, .sessionExpired, .refreshTokenReused, .invalidAccessToken,
             .reauthenticationRequired, .invalidMFATicket, .invalidIDToken: .unauthorized
        case .emailNotConfirmed, .userDisabled, .providerEmailUnverified: .forbidden
        case .invalidToken, .tokenExpired, .invalidCode, .invalidMFACode, .mfaRequired,
             .invalidPasskeyChallenge, .passkeyRejected, .invalidNonce: .badRequest
        case .tokenUsed, .tokenSuperseded, .alreadyConfirmed, .emailTaken, .mfaNotEnabled,
             .lastSignInMethod: .conflict
        case .sessionNotFound, .factorNotFound, .passkeyNotFound, .identityNotFound: .notFound
        case .rateLimited: .tooManyRequests
        case .providerUnavailable: .serviceUnavailable
        }
    }

    /// `Retry-After` for limits; for a bad access or refresh token the RFC 6750 §3.1 challenge; for missing proof
    /// of presence RFC 9470's, with the age a re-authentication may have.
    public var headers: HTTPHeaders {
        switch self {
        case .rateLimited(let seconds): ["Retry-After": String(seconds)]
        case .invalidSession, .sessionExpired, .refreshTokenReused, .invalidAccessToken:
            ["WWW-Authenticate": Self.invalidTokenChallenge]
        case .reauthenticationRequired(let maxAge, let acr):
            ["WWW-Authenticate": #"Bearer error="insufficient_user_authentication", "#
                + (acr.map { #"acr_values=""# + $0.rawValue + #"", "# } ?? "") + "max_age=" + String(maxAge)]
        default: HTTPHeaders()
        }
    }

    /// `WWW-Authenticate` for a bad, expired or revoked access or refresh token (RFC 6750 §3.1).
    public static let invalidTokenChallenge = #"Bearer error="invalid_token""#
}
