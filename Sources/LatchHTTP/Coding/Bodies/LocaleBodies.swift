import AuthCore

extension FieldLimits {
    /// A BCP 47 tag as `Accept-Language` ranges go (RFC 4647): 35 characters cover every registered form.
    static let localeCharacters = 35
}

/// `{"email", "password", "locale"?}` for `POST /v1/signup`.
struct SignUpBody: APIRequestBody {
    let email: String
    let password: String
    let locale: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password, locale
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
        if let locale { try FieldLimits.check(locale, field: "locale", maxCharacters: FieldLimits.localeCharacters) }
    }
}

/// `{"locale"}` for `PATCH /v1/me`.
struct LocaleBody: APIRequestBody {
    let locale: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case locale
    }

    func validate() throws(APIError) {
        try FieldLimits.check(locale, field: "locale", maxCharacters: FieldLimits.localeCharacters)
    }
}
