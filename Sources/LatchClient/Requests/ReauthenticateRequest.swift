import Foundation

/// `POST /v1/reauthenticate` (bearer) with exactly one proof: the password, the mailed code, the authenticator's
/// code, a recovery code, or a passkey's assertion with its challenge (`challenge_id` and `credential`) → 200
/// `{"access_token", "access_token_expires_at", "reauthenticated_until"}`: a new access token of the same session
/// (the refresh token stays), carrying the proof of presence that privileged changes accept until
/// `reauthenticated_until`. The other keys are left out (the server refuses null and a second proof).
struct ReauthenticateRequest: APIRequest {
    static let path = "/v1/reauthenticate"
    private(set) var password: String?
    private(set) var emailCode: String?
    /// The authenticator app's current code (TOTP).
    private(set) var code: String?
    private(set) var recoveryCode: String?
    /// A challenge of `POST /v1/passkeys/authentication/options` asked for with this session's bearer, lowercased.
    private(set) var challengeID: String?
    private(set) var credential: AuthenticationResponseJSON?

    enum CodingKeys: String, CodingKey {
        case password, code, credential
        case emailCode = "email_code"
        case recoveryCode = "recovery_code"
        case challengeID = "challenge_id"
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

    init(passkey credential: AuthenticationResponseJSON, challengeID: UUID) {
        self.credential = credential
        self.challengeID = challengeID.uuidString.lowercased()
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
