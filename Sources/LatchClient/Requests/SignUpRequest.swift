/// `POST /v1/signup` → 202 `{"status":"confirmation_sent"}`, whether or not the address has an account.
struct SignUpRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/signup"
    let email: String
    let password: String
}
