/// `{"new_email":…,"password":…}` to ask for a change of address; without `password` after a re-authentication
/// of the session.
struct EmailChangeBody: APIRequestBody {
    let newEmail: String
    let password: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case newEmail = "new_email"
        case password
    }

    func validate() throws(APIError) {
        try FieldLimits.check(newEmail, field: "new_email", maxBytes: FieldLimits.emailBytes)
        if let password {
            try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
        }
    }
}
