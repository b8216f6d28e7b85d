import AuthCore

extension FieldLimits {
    /// TOTP codes are 6 digits, perhaps typed with spaces. Counted in characters, as openapi.yaml's `maxLength`.
    static let totpCodeCharacters = 16
    /// Recovery codes are 16 characters in four groups (19 with hyphens), perhaps typed with spaces; also the
    /// landing page's field, in bytes.
    static let recoveryCodeBytes = 32
    static let recoveryCodeCharacters = 32
    /// Second-factor tickets are 43 base64url characters.
    static let ticketCharacters = 64
    /// A factor's name, as shown in the app.
    static let factorNameCharacters = 64
}

/// A TOTP code or a recovery code, exactly one, under the names `codeField` and `recovery_code`.
private func secondFactor(code: String?, recoveryCode: String?, codeField: String, optional: Bool = false)
    throws(APIError) -> SecondFactorProof?
{
    switch (code, recoveryCode) {
    case (let code?, nil):
        try FieldLimits.check(code, field: codeField, maxCharacters: FieldLimits.totpCodeCharacters)
        return .totp(code)
    case (nil, let recoveryCode?):
        try FieldLimits.check(recoveryCode, field: "recovery_code", maxCharacters: FieldLimits.recoveryCodeCharacters)
        return .recoveryCode(recoveryCode)
    case (nil, nil) where optional:
        return nil
    default:
        throw .invalidField("\(codeField), or recovery_code (exactly one of the two)")
    }
}

/// `{"mfa_ticket", "code"}` or `{"mfa_ticket", "recovery_code"}` for `POST /v1/signin/mfa`.
struct SecondFactorSignInBody: APIRequestBody {
    let mfaTicket: String
    let code: String?
    let recoveryCode: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case mfaTicket = "mfa_ticket"
        case code
        case recoveryCode = "recovery_code"
    }

    func validate() throws(APIError) {
        try FieldLimits.check(mfaTicket, field: "mfa_ticket", maxCharacters: FieldLimits.ticketCharacters)
        _ = try proof()
    }

    func proof() throws(APIError) -> SecondFactorProof {
        // Not optional, so never nil.
        try secondFactor(code: code, recoveryCode: recoveryCode, codeField: "code") ?? .totp("")
    }
}

/// `{}` or `{"name"}` for `POST /v1/mfa/totp`.
struct TOTPEnrolmentBody: APIRequestBody {
    var name: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
    }

    func validate() throws(APIError) {
        guard let name else { return }
        try FieldLimits.checkName(name, field: "name", maxCharacters: FieldLimits.factorNameCharacters)
    }
}

/// `{"code"}` for `POST /v1/mfa/totp/{id}/activate`.
struct TOTPActivationBody: APIRequestBody {
    let code: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case code
    }

    func validate() throws(APIError) {
        try FieldLimits.check(code, field: "code", maxCharacters: FieldLimits.totpCodeCharacters)
    }
}

/// The optional second factor of a password reset: `mfa_code` (not `code`, which the reset by mailed code uses
/// already) or `recovery_code`.
extension PasswordResetBody {
    func secondFactorProof() throws(APIError) -> SecondFactorProof? {
        try secondFactor(code: mfaCode, recoveryCode: recoveryCode, codeField: "mfa_code", optional: true)
    }
}

extension ReauthenticationBody {
    /// The second factor of a re-authentication, when the body holds one.
    static func secondFactorProof(code: String?, recoveryCode: String?) throws(APIError) -> SecondFactorProof? {
        try secondFactor(code: code, recoveryCode: recoveryCode, codeField: "code", optional: true)
    }
}
