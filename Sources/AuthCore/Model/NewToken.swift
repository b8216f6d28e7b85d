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

    public init(
        hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, mail: ComposedMail,
        codeDigest: Data? = nil, newEmail: EmailAddress? = nil
    ) {
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
