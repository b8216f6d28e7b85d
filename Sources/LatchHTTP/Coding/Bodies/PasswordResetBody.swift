/// `{"token":…,"password":…}` or `{"email":…,"code":…,"password":…}` for password reset.
struct PasswordResetBody: APIRequestBody {
    let token: String?
    let email: String?
    let code: String?
    let password: String

    func validate() throws(APIError) {
        _ = try redemption()
        try FieldLimits.check(password, field: "password", maxBytes: FieldLimits.passwordBytes)
    }

    func redemption() throws(APIError) -> TokenBody.Redemption {
        try TokenBody(token: token, email: email, code: code).redemption()
    }
}
