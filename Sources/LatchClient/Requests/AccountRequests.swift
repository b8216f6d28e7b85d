/// `POST /v1/password/change` (bearer) → 200 `{"status":"password_changed"}`. Without `current_password` (the key
/// left out: the server refuses null) after a re-authentication, or to give an account without one a password.
struct ChangePasswordRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/password/change"
    let currentPassword: String?
    let newPassword: String

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

/// `POST /v1/email/change` (bearer) → 202 `{"status":"confirmation_sent"}`; without `password` (the key left out)
/// after a re-authentication.
struct ChangeEmailRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/email/change"
    let newEmail: String
    let password: String?

    enum CodingKeys: String, CodingKey {
        case newEmail = "new_email"
        case password
    }
}

/// `POST /v1/email/change/confirm` → 200 user: the link's token, or the code with the *new* address.
struct ConfirmEmailChangeRequest: APIRequest {
    typealias Response = User
    static let path = "/v1/email/change/confirm"
    let token: String?
    let email: String?
    let code: String?

    init(token: String) {
        self.token = token
        email = nil
        code = nil
    }

    init(newEmail: String, code: String) {
        token = nil
        email = newEmail
        self.code = code
    }
}

/// `GET /v1/sessions` (bearer) → 200 `{"sessions":[…]}`.
struct SessionsRequest: APIRequest {
    typealias Response = SessionList
    static let method = "GET"
    static let path = "/v1/sessions"
}

/// `DELETE /v1/sessions/{id}` (bearer) → 204.
struct RevokeSessionRequest: APIRequest {
    typealias Response = NoContent
    static let method = "DELETE"
    static let path = "/v1/sessions/{id}"
    static let sendsBody = false
    let id: SessionInfo.ID

    var resolvedPath: String { "/v1/sessions/" + id.uuidString.lowercased() }
}

/// `DELETE /v1/me` (bearer) `{"password":…}`, or `{}` after a re-authentication → 204.
struct DeleteAccountRequest: APIRequest {
    typealias Response = NoContent
    static let method = "DELETE"
    static let path = "/v1/me"
    let password: String?
}
