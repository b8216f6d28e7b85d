/// `POST /v1/password/reset` → 200 `{"status":"password_reset","user":{…}}`. The server ends every session of
/// the user, this device's included.
struct ResetPasswordRequest: APIRequest {
    static let path = "/v1/password/reset"
    let token: String
    let password: String

    struct Response: APIResponse, Decodable {
        let user: User
    }
}
