import AuthCore
import Testing

@Suite struct PasswordPolicyTests {
    let policy = Harness.policy
    let email = try! EmailAddress("Alice@example.com")

    private func check(_ password: String) throws(AuthError) {
        try policy.check(typed: password, email: email)
    }

    @Test func lengthBoundsCountCodePoints() throws {
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) { try check("qz7#kLp") }
        try check("qz7#kLpw")
        // 128 characters, most of them several UTF-8 bytes long: the bound is on characters, not bytes.
        let multibyte = String(repeating: "é🔑ж", count: 42) + "qz"
        #expect(multibyte.unicodeScalars.count == 128 && multibyte.utf8.count > 128)
        try check(multibyte)
        #expect(throws: AuthError.weakPassword(.passwordTooLong)) { try check(multibyte + "x") }
        #expect(throws: AuthError.weakPassword(.passwordTooLong)) { try check(String(repeating: "a", count: 129)) }
    }

    @Test func lengthIsCountedAsTypedNotAfterNormalising() throws {
        // Seven characters that NFKC makes eight ("ﬁ" is "fi"), and eight that it makes seven (e + U+0301 is é):
        // the length is that of the password as sent, as a JSON Schema minLength counts it.
        #expect(PasswordPolicy.normalize("qz7#ﬁLp").unicodeScalars.count == 8)
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) { try check("qz7#ﬁLp") }
        #expect(PasswordPolicy.normalize("qz7#kLe\u{0301}").unicodeScalars.count == 7)
        try check("qz7#kLe\u{0301}")
    }

    @Test func rejectsCommonPasswordsIgnoringCase() {
        #expect(Harness.policy.commonPasswords.count > 19_000)
        for common in ["password", "PassWord", "12345678", "iloveyou"] {
            #expect(throws: AuthError.weakPassword(.passwordTooCommon)) { try check(common) }
        }
    }

    @Test func rejectsTheEmailAndItsLocalPart() {
        #expect(throws: AuthError.weakPassword(.passwordIsEmail)) { try check("alice@EXAMPLE.com") }
        // Local part alone is only 5 characters here, so use a longer one to reach the rule.
        let long = try! EmailAddress("alexandria@example.com")
        #expect(throws: AuthError.weakPassword(.passwordIsEmail)) {
            try policy.check(typed: "ALEXANDRIA", email: long)
        }
    }

    @Test func comparesTheNormalisedFormWithTheListAndTheEmail() {
        // Full-width letters are the common password once normalised.
        #expect(throws: AuthError.weakPassword(.passwordTooCommon)) { try check("ｐａｓｓｗｏｒｄ") }
    }

    @Test func hasNoCompositionRules() throws {
        try check("all lowercase words here")
    }

    @Test func normalisesToNFKC() {
        // "é" composed and decomposed are the same password after normalisation.
        #expect(PasswordPolicy.normalize("caf\u{0065}\u{0301}s-secret") == PasswordPolicy.normalize("caf\u{00E9}s-secret"))
    }

    @Test func reasonsHaveStableCodes() {
        #expect(AuthError.weakPassword(.passwordTooShort).code == "weak_password")
        #expect(AuthError.weakPassword(.passwordTooShort).reason == "password_too_short")
        #expect(WeakPasswordReason.allCases.map(\.rawValue)
            == ["password_too_short", "password_too_long", "password_is_email", "password_too_common"])
    }
}
