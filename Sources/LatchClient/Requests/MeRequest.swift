/// `GET /v1/me` (bearer) → 200 user.
struct MeRequest: APIRequest {
    typealias Response = User
    static let method = "GET"
    static let path = "/v1/me"
}

/// `PATCH /v1/me` (bearer) `{"locale":…}` → 200 user: the language the server writes to the user in.
struct SetLocaleRequest: APIRequest {
    typealias Response = User
    static let method = "PATCH"
    static let path = "/v1/me"
    let locale: String
}
