/// `{"token":…}` for confirmation.
struct TokenBody: APIRequestBody {
    let token: String

    func validate() throws(APIError) {
        try FieldLimits.check(token, field: "token", maxBytes: FieldLimits.tokenBytes)
    }
}
