import AuthCore

/// `{"email":…,"binding":…}` to ask for a sign-in mail: `binding` is base64url(SHA-256(S)) of the secret S the
/// asking app instance keeps.
struct EmailSignInBody: APIRequestBody {
    let email: String
    let binding: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, binding
    }

    func validate() throws(APIError) {
        try FieldLimits.check(email, field: "email", maxBytes: FieldLimits.emailBytes)
        guard TokenText.isToken(binding) else { throw .invalidField("binding") }
    }
}

/// `{"token":…,"binding_secret":…}` (the link's token) or `{"email":…,"code":…,"binding_secret":…}` (the code
/// typed from the same mail), with base64url(S) of the secret the request was bound to.
struct EmailSignInVerifyBody: APIRequestBody {
    let token: String?
    let email: String?
    let code: String?
    let bindingSecret: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case token, email, code
        case bindingSecret = "binding_secret"
    }

    func validate() throws(APIError) {
        guard TokenText.isToken(bindingSecret) else { throw .invalidField("binding_secret") }
        _ = try redemption()
    }

    /// The link or the code form, as `TokenBody` reads them.
    func redemption() throws(APIError) -> TokenBody.Redemption {
        try TokenBody(token: token, email: email, code: code).redemption()
    }
}

/// `{"password":…}` or `{"email_code":…}`: the proof of presence of `POST /v1/reauthenticate`; exactly one.
struct ReauthenticationBody: APIRequestBody {
    let password: String?
    let emailCode: String?
    let code: String?
    let recoveryCode: String?
    let challengeID: String?
    let credential: AuthenticationResponseJSON?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case password
        case emailCode = "email_code"
        case code
        case recoveryCode = "recovery_code"
        case challengeID = "challenge_id"
        case credential
    }

    func validate() throws(APIError) {
        _ = try proof()
    }

    enum Proof {
        case password(String)
        case emailCode(String)
        case secondFactor(SecondFactorProof)
        case passkey(challengeID: String, credential: PasskeyAssertionCredential)
    }

    func proof() throws(APIError) -> Proof {
        let exactlyOne = "password, email_code, code, recovery_code, or challenge_id and credential (exactly one)"
        if challengeID != nil || credential != nil {
            guard let challengeID, let credential, password == nil, emailCode == nil, code == nil, recoveryCode == nil
            else { throw .invalidField(exactlyOne) }
            try FieldLimits.check(challengeID, field: "challenge_id", maxCharacters: FieldLimits.challengeIDCharacters)
            return .passkey(challengeID: challengeID, credential: try credential.credential())
        }
        let secondFactor = try Self.secondFactorProof(code: code, recoveryCode: recoveryCode)
        if let secondFactor, password == nil, emailCode == nil { return .secondFactor(secondFactor) }
        if code != nil || recoveryCode != nil {
            throw .invalidField(exactlyOne)
        }
        switch (password, emailCode) {
        case (let password?, nil):
            try FieldLimits.check(password, field: "password", maxCharacters: FieldLimits.passwordCharacters)
            return .password(password)
        case (nil, let code?):
            try FieldLimits.check(code, field: "email_code", maxBytes: FieldLimits.codeBytes)
            return .emailCode(code)
        default:
            throw .invalidField(exactlyOne)
        }
    }
}
