/// `{"email":…}` for confirmation resend and forgot password.
struct EmailBody: APIRequestBody {
    let email: String

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
    }
}
