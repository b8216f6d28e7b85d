/// `{"password":…}`: the current password, to delete the account.
struct PasswordBody: APIRequestBody {
    let password: String

    func validate() throws(APIError) {
        try FieldLimits.check(password, field: "password", maxBytes: FieldLimits.passwordBytes)
    }
}
