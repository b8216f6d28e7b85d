import AuthCore

/// `{"purpose": "confirm"|"reset"}` for `POST /admin/v1/users/{id}/links`.
struct AdminLinkBody: APIRequestBody {
    let purpose: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case purpose
    }

    /// Only the two links an operator issues (`latchctl link`).
    var tokenPurpose: TokenPurpose? {
        switch purpose {
        case "confirm": .confirm
        case "reset": .reset
        default: nil
        }
    }

    func validate() throws(APIError) {
        if tokenPurpose == nil { throw .invalidField("purpose") }
    }
}

/// `{"email", "locale"?}` for `POST /admin/v1/invites`.
struct AdminInviteBody: APIRequestBody {
    let email: String
    let locale: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, locale
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        if let locale { try FieldLimits.check(locale, field: "locale", maxCharacters: FieldLimits.localeCharacters) }
    }
}

/// `{"email"?, "email_confirmed"?, "disabled"?, "locale"?}` for `PATCH /admin/v1/users/{id}`: at least one field.
/// `email_confirmed` goes with `email` only: true sets the address confirmed (the operator vouches for the
/// mailbox), false or absent leaves it to confirm and mails a confirmation link to it.
struct AdminUserPatchBody: APIRequestBody {
    let email: String?
    let emailConfirmed: Bool?
    let disabled: Bool?
    let locale: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, disabled, locale
        case emailConfirmed = "email_confirmed"
    }

    func validate() throws(APIError) {
        guard email != nil || disabled != nil || locale != nil else { throw .invalidField("email") }
        if let email { try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes) }
        if emailConfirmed != nil, email == nil { throw .invalidField("email_confirmed") }
        if let locale { try FieldLimits.check(locale, field: "locale", maxCharacters: FieldLimits.localeCharacters) }
    }
}
