/// `{"refresh_token":…}` for refresh-token rotation.
struct RefreshTokenBody: APIRequestBody {
    let refreshToken: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case refreshToken = "refresh_token"
    }

    func validate() throws(APIError) {
        try FieldLimits.check(refreshToken, field: "refresh_token", maxBytes: FieldLimits.tokenBytes)
    }
}
