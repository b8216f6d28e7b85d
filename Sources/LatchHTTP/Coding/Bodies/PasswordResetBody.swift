/// `{"token":…,"password":…}` for password reset.
struct PasswordResetBody: APIRequestBody {
    let token: String
    let password: String

    func validate() throws(APIError) {
        try FieldLimits.check(token, field: "token", maxBytes: FieldLimits.tokenBytes)
        try FieldLimits.check(password, field: "password", maxBytes: FieldLimits.passwordBytes)
    }
}
