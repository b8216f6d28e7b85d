/// `{"email":…,"password":…}` for sign-up.
struct EmailPasswordBody: APIRequestBody {
    let email: String
    let password: String

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        try FieldLimits.check(password, field: "password", maxBytes: FieldLimits.passwordBytes)
    }
}
