/// `{"token":…,"password":…}` or `{"email":…,"code":…,"password":…}` to accept an invitation: the link's token or
/// the code typed from the same mail, exactly one of the two, and the account's first password.
struct InviteAcceptBody: APIRequestBody {
    let token: String?
    let email: String?
    let code: String?
    let password: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case token, email, code, password
    }

    func validate() throws(APIError) {
        _ = try redemption()
        try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
    }

    func redemption() throws(APIError) -> TokenBody.Redemption {
        try TokenBody(token: token, email: email, code: code).redemption()
    }
}
