/// `{"email":…,"password":…}` for sign-up.
struct EmailPasswordBody: APIRequestBody {
    let email: String
    let password: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
    }
}
