/// `POST /v1/signup` → 202 `{"status":"confirmation_sent"}`, whether or not the address has an account. Without
/// `locale` (the key left out: the server refuses null) the server picks the account's language from the request's
/// `Accept-Language`.
struct SignUpRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/signup"
    let email: String
    let password: String
    let locale: String?
}
