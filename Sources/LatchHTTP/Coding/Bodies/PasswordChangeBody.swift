/// `{"current_password":…,"new_password":…}` for a signed-in change of password; without `current_password`
/// after a re-authentication of the session (how an account without a password sets one).
struct PasswordChangeBody: APIRequestBody {
    let currentPassword: String?
    let newPassword: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }

    func validate() throws(APIError) {
        if let currentPassword {
            try FieldLimits.check(currentPassword, field: "current_password", maxCharacters: FieldLimits.passwordCharacters)
        }
        try FieldLimits.check(newPassword, field: "new_password", maxCharacters: FieldLimits.passwordCharacters)
    }
}
