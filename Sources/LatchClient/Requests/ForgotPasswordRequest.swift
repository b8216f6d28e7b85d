/// `POST /v1/password/forgot` → 202 `{"status":"reset_sent"}`, whether or not the address has an account.
struct ForgotPasswordRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/password/forgot"
    let email: String
}
