/// `{"password":…}`: the current password, to delete the account.
struct PasswordBody: APIRequestBody {
    let password: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case password
    }

    func validate() throws(APIError) {
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
    }
}
