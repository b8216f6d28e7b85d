/// `{"email":…}` for confirmation resend and forgot password.
struct EmailBody: APIRequestBody {
    let email: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
    }
}
