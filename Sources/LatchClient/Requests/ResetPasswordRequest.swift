/// `POST /v1/password/reset` → 200 `{"status":"password_reset","user":{…}}`, by the link's token or the code
/// beside it with the address, and for an account with a second factor one of its codes (`mfa_code`, the
/// authenticator's, or `recovery_code`; the keys left out when not given). The server ends every session of the user,
/// this device's included.
struct ResetPasswordRequest: APIRequest {
    static let path = "/v1/password/reset"
    private(set) var token: String?
    private(set) var email: String?
    private(set) var code: String?
    let password: String
    let mfaCode: String?
    let recoveryCode: String?

    enum CodingKeys: String, CodingKey {
        case token, email, code, password
        case mfaCode = "mfa_code"
        case recoveryCode = "recovery_code"
    }

    init(token: String, password: String, mfaCode: String?, recoveryCode: String?) {
        self.token = token
        self.password = password
        self.mfaCode = mfaCode
        self.recoveryCode = recoveryCode
    }

    init(email: String, code: String, password: String, mfaCode: String?, recoveryCode: String?) {
        self.email = email
        self.code = code
        self.password = password
        self.mfaCode = mfaCode
        self.recoveryCode = recoveryCode
    }

    struct Response: APIResponse, Decodable {
        let user: User
    }
}
