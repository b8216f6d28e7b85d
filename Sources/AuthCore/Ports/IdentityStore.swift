import Foundation

/// The `identities`, `sign_in_nonces` and `provider_jobs` tables. Each method is one statement; the flows join
/// several in `UnitOfWork.transaction` where a sign-in links, creates or opens.
public protocol IdentityStore: Sendable {
    /// Stores a nonce (only its digest).
    func storeSignInNonce(_ nonce: NewSignInNonce) throws

    /// Spends the nonce `id` of `provider` if it is unused and unexpired at `now`: one conditional UPDATE, so a
    /// nonce is spent once, whoever asks at the same time.
    /// - Returns: the stored digest, nil when this call did not spend it.
    func spendSignInNonce(id: SignInNonceID, provider: String, now: Date) throws -> Data?

    /// The identity `(provider, subject)`, whoever's it is.
    func identity(provider: String, subject: String) throws -> IdentityRecord?

    /// The user's identities, oldest first.
    func identities(userID: UserID) throws -> [IdentityRecord]

    /// Links a new identity; false (nothing written) when `(provider, subject)` is linked already.
    func addIdentity(_ identity: IdentityRecord, givenName: String?, familyName: String?) throws -> Bool

    /// Records a sign-in with the identity and the address the provider asserted this time.
    func recordIdentityUse(id: IdentityID, email: String?, emailVerified: Bool, isPrivateEmail: Bool, at: Date)
        throws

    /// Removes the user's identity; false when the user has no identity of that id. Its provider tokens are
    /// marked for revocation in the same statement (unlinking ends what the app was granted).
    func removeIdentity(id: IdentityID, userID: UserID, now: Date) throws -> Bool

    /// Creates a confirmed account without a password (`NewUser.passwordHash` is `UserRecord.unsetPasswordHash`).
    /// - Throws: `UserStoreError.emailTaken` when the address has an account.
    func createConfirmedUser(_ user: NewUser) throws -> UserRecord

    /// Confirms an unconfirmed account and unsets its password with a new password version (every older link
    /// ends): a provider's verified address is proof of the mailbox, and whoever typed a password at sign-up must
    /// not keep it. False when the account was confirmed already (nothing changes then).
    func confirmDroppingPassword(userID: UserID, at: Date) throws -> Bool

    /// Whether the identity has a provider token job that is not finished (an exchange, or a held token): a new
    /// sign-in's authorization code is then not needed.
    func hasProviderToken(identityID: IdentityID) throws -> Bool

    /// Queues an exchange job (`ProviderJob.action` `.exchange`).
    func enqueueProviderJob(_ job: ProviderJob) throws

    /// Marks every held token of the user's identities for revocation now, and every pending exchange to revoke
    /// once exchanged. Called in the transaction that deletes the account (or unlinks the identity).
    /// - Returns: how many jobs were marked.
    func scheduleProviderRevocations(userID: UserID, now: Date) throws -> Int

    /// Claims up to `limit` due jobs (`exchange` or `revoke`) until `leaseUntil` (`FOR UPDATE SKIP LOCKED`).
    func claimProviderJobs(now: Date, leaseUntil: Date, limit: Int) throws -> [ProviderJob]

    /// Records the outcome of a claimed job.
    func finishProviderJob(id: ProviderJobID, outcome: ProviderJobOutcome, at: Date) throws
}

/// What became of a claimed provider job.
public enum ProviderJobOutcome: Hashable, Sendable {
    /// The exchange gave a refresh token (sealed for the row): held for a later revocation, or revoked next when
    /// the account went meanwhile.
    case exchanged(sealedRefreshToken: Data)
    /// The revocation succeeded.
    case revoked
    /// A temporary failure: try again at `retryAt`.
    case retry(at: Date, error: String)
    /// A permanent failure, or too many tries: the token is forgotten.
    case failed(error: String)
}
