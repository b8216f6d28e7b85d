import Foundation

/// A token to insert, with the mail that carries it.
public struct NewToken: Hashable, Sendable {
    /// `TokenGenerator.digest` of the raw token; the raw token is only in `mail`.
    public var hash: Data
    public var userID: UserID
    public var purpose: TokenPurpose
    public var createdAt: Date
    public var expiresAt: Date
    /// Written to the outbox in the same transaction.
    public var mail: ComposedMail
    /// `OneTimeCodes.digest` of the code the mail shows beside the link.
    public var codeDigest: Data?
    /// The address an `emailChange` token sets (stored as `new_email` and `new_email_key`), nil otherwise.
    public var newEmail: EmailAddress?
    /// For `signIn`: SHA-256 of the secret the asking app instance holds; redeeming needs the secret.
    public var binding: Data?
    /// When set, nothing is written if the user has a token of the purpose created after it (one sign-in mail
    /// per address per minute); a token inserted supersedes the user's other live ones of its purpose (a newer
    /// sign-in mail replaces the older, never a pending reset or confirmation).
    public var quietSince: Date?

    public init(
        hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, mail: ComposedMail,
        codeDigest: Data? = nil, newEmail: EmailAddress? = nil, binding: Data? = nil
    ) {
        self.binding = binding
        self.newEmail = newEmail
        self.hash = hash
        self.userID = userID
        self.purpose = purpose
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.mail = mail
        self.codeDigest = codeDigest
    }
}
