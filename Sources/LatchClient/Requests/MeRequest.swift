/// `GET /v1/me` (bearer) → 200 user.
struct MeRequest: APIRequest {
    typealias Response = User
    static let method = "GET"
    static let path = "/v1/me"
}
