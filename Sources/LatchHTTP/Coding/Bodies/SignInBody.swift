/// `{"email":…,"password":…,"device_token":…}` for sign-in; `device_token` (from an earlier sign-in on this
/// device) is optional.
struct SignInBody: APIRequestBody {
    let email: String
    let password: String
    let deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case deviceToken = "device_token"
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        try FieldLimits.check(password, field: "password", maxBytes: FieldLimits.passwordBytes)
        if let deviceToken {
            try FieldLimits.check(deviceToken, field: "device_token", maxBytes: FieldLimits.tokenBytes)
        }
    }
}
