/// `POST /v1/signout` (bearer) → 204.
struct SignOutRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/signout"
    let scope: SignOutScope
}
