import Foundation

/// `POST /v1/reauthenticate` (bearer) with the password or the mailed code → 200 `{"access_token",
/// "access_token_expires_at", "reauthenticated_until"}`: a new access token of the same session (the refresh token
/// stays), carrying the proof of presence that privileged changes accept until `reauthenticated_until`.
struct ReauthenticateRequest: APIRequest {
    static let path = "/v1/reauthenticate"
    let password: String?
    let emailCode: String?

    enum CodingKeys: String, CodingKey {
        case password
        case emailCode = "email_code"
    }

    init(password: String) {
        self.password = password
        emailCode = nil
    }

    init(emailCode: String) {
        password = nil
        self.emailCode = emailCode
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
