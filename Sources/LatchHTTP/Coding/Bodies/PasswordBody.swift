/// `{"password":…}`: the current password, to delete the account; `{}` (or no body) after a re-authentication
/// of the session.
struct PasswordBody: APIRequestBody {
    let password: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case password
    }

    func validate() throws(APIError) {
        if let password {
            try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
        }
    }
}
