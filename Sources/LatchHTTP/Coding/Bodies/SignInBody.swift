/// `{"email":…,"password":…,"device_token":…}` for sign-in; `device_token` (from an earlier sign-in on this
/// device) is optional.
struct SignInBody: APIRequestBody {
    let email: String
    let password: String
    let deviceToken: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password
        case deviceToken = "device_token"
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
        // Any text: one that is not a live device token of the account counts as none, so a stale or garbled one
        // costs the lockout exemption, never the sign-in.
        if let deviceToken {
            try FieldLimits.check(deviceToken, field: "device_token", maxCharacters: FieldLimits.deviceTokenCharacters)
        }
    }
}
