import Foundation

/// The password rules of ARCHITECTURE.md, security rule 1 (NIST 800-63B): 8 to 128 characters, no composition rules, not the email
/// (nor its local part), not a common password. The same rules apply at sign-up and at reset.
public struct PasswordPolicy: Sendable {
    /// Bounds in Unicode code points of the password as typed, which is how NIST counts characters and how
    /// openapi.yaml's `minLength`/`maxLength` count them (normalising may change the count: `ﬁ` becomes `fi`).
    public static let minimumLength = 8
    public static let maximumLength = 128

    public let commonPasswords: CommonPasswords

    public init(commonPasswords: CommonPasswords) {
        self.commonPasswords = commonPasswords
    }

    /// NFKC, as NIST recommends, so the same password typed on two keyboards (composed or decomposed accents,
    /// full-width letters) hashes the same. Every flow hashes and verifies the normalised form.
    public static func normalize(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// Checks a password as typed for the account `email`: its length as typed, then its normalised form against
    /// the email and the common passwords.
    /// - Throws: `AuthError.weakPassword` with the first broken rule.
    public func check(typed password: String, email: EmailAddress) throws(AuthError) {
        let length = password.unicodeScalars.count
        if length < Self.minimumLength { throw .weakPassword(.passwordTooShort) }
        if length > Self.maximumLength { throw .weakPassword(.passwordTooLong) }
        let lowered = Self.normalize(password).lowercased()
        if lowered == email.key || lowered == email.localPart.lowercased() {
            throw .weakPassword(.passwordIsEmail)
        }
        if commonPasswords.contains(lowered) { throw .weakPassword(.passwordTooCommon) }
    }
}
