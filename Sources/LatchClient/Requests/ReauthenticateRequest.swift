import Foundation

/// `POST /v1/reauthenticate` (bearer) with exactly one proof: the password, the mailed code, the authenticator's
/// code or a recovery code → 200 `{"access_token", "access_token_expires_at", "reauthenticated_until"}`: a new
/// access token of the same session (the refresh token stays), carrying the proof of presence that privileged changes
/// accept until `reauthenticated_until`. The other keys are left out (the server refuses null and a second proof).
struct ReauthenticateRequest: APIRequest {
    static let path = "/v1/reauthenticate"
    private(set) var password: String?
    private(set) var emailCode: String?
    /// The authenticator app's current code (TOTP).
    private(set) var code: String?
    private(set) var recoveryCode: String?

    enum CodingKeys: String, CodingKey {
        case password, code
        case emailCode = "email_code"
        case recoveryCode = "recovery_code"
    }

    init(password: String) {
        self.password = password
    }

    init(emailCode: String) {
        self.emailCode = emailCode
    }

    init(code: String) {
        self.code = code
    }

    init(recoveryCode: String) {
        self.recoveryCode = recoveryCode
    }

    struct Response: APIResponse, Decodable {
        let accessToken: String
        let accessTokenExpiresAt: Date
        let reauthenticatedUntil: Date

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case accessTokenExpiresAt = "access_token_expires_at"
            case reauthenticatedUntil = "reauthenticated_until"
        }
    }
}

/// `POST /v1/reauthenticate/email` (bearer, no body) → 202 `{"status":"code_sent"}`: an 8-digit code mailed to the
/// signed-in user, for `ReauthenticateRequest(emailCode:)`.
struct ReauthenticationCodeRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/reauthenticate/email"
    static let sendsBody = false
}
