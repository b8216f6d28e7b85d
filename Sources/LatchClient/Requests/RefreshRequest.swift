/// `POST /v1/token/refresh` → 200 session: the presented refresh token is spent, a new pair issued.
struct RefreshRequest: APIRequest {
    typealias Response = Session
    static let path = "/v1/token/refresh"
    let refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}
