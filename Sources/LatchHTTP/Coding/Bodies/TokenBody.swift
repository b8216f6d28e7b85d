/// `{"token":…}` (the link's token) or `{"email":…,"code":…}` (the code typed from the same mail) for
/// confirmation; exactly one of the two forms.
struct TokenBody: APIRequestBody {
    let token: String?
    let email: String?
    let code: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case token, email, code
    }

    func validate() throws(APIError) {
        _ = try redemption()
    }

    /// Which form the body has, or `invalid_request` naming what is wrong.
    func redemption() throws(APIError) -> Redemption {
        switch (token, email, code) {
        case (let token?, nil, nil):
            try FieldLimits.check(token, field: "token", maxBytes: FieldLimits.tokenBytes)
            return .token(token)
        case (nil, let email?, let code?):
            try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
            try FieldLimits.check(code, field: "code", maxBytes: FieldLimits.codeBytes)
            return .code(email: email, code: code)
        default:
            throw .invalidField("token, or email and code (exactly one of the two)")
        }
    }

    enum Redemption {
        case token(String)
        case code(email: String, code: String)
    }
}
