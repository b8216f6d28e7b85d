/// `{"token":…,"password":…}` or `{"email":…,"code":…,"password":…}` for password reset, with `mfa_code` or
/// `recovery_code` for an account with a second factor.
struct PasswordResetBody: APIRequestBody {
    let token: String?
    let email: String?
    let code: String?
    let password: String
    let mfaCode: String?
    let recoveryCode: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case token, email, code, password
        case mfaCode = "mfa_code"
        case recoveryCode = "recovery_code"
    }

    func validate() throws(APIError) {
        _ = try redemption()
        _ = try secondFactorProof()
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
    }

    func redemption() throws(APIError) -> TokenBody.Redemption {
        try TokenBody(token: token, email: email, code: code).redemption()
    }
}
