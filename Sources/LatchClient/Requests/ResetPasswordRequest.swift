/// `POST /v1/password/reset` → 200 `{"status":"password_reset","user":{…}}`, by the link's token or the code
/// beside it with the address. The server ends every session of the user, this device's included.
struct ResetPasswordRequest: APIRequest {
    static let path = "/v1/password/reset"
    let token: String?
    let email: String?
    let code: String?
    let password: String

    init(token: String, password: String) {
        self.token = token
        email = nil
        code = nil
        self.password = password
    }

    init(email: String, code: String, password: String) {
        token = nil
        self.email = email
        self.code = code
        self.password = password
    }

    struct Response: APIResponse, Decodable {
        let user: User
    }
}
