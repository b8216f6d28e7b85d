import Foundation

/// The `mfa_factors`, `mfa_recovery_codes` and `mfa_tickets` tables. Each method is one transaction; the flows
/// join several in `UnitOfWork.transaction` where a code is spent together with what it proves.
public protocol SecondFactorStore: Sendable {
    /// The user's active factors (oldest first) and unspent recovery codes.
    func secondFactorStatus(userID: UserID) throws -> SecondFactorStatus

    /// The user's active TOTP factors with their sealed secrets, oldest first.
    func activeTOTPFactors(userID: UserID) throws -> [TOTPFactorRecord]

    /// Stores `factor` as the user's pending factor (an earlier pending one is deleted) and records `audit`.
    func storePendingFactor(_ factor: TOTPFactorRecord, audit: AuditEvent) throws

    /// The user's pending factor `id` while it is unexpired at `now` and has attempts below `attemptLimit`.
    func pendingFactor(id: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> TOTPFactorRecord?

    /// Counts an activation attempt on the pending factor `id` of `userID` before its code is judged, only while
    /// it is pending, unexpired at `now` and below `attemptLimit` (one conditional UPDATE): of any number of
    /// attempts sent at once, at most `attemptLimit` are ever judged.
    /// - Returns: whether the attempt was counted (false: the factor is gone for this purpose).
    func countActivationAttempt(factorID: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> Bool

    /// Activates the pending factor `id` of `userID` with `step` as its last accepted step, if it is still pending,
    /// unexpired at `at` and has counted at most `attemptLimit` attempts (the one that activates among them).
    /// - Returns: whether it was activated.
    func activateFactor(id: FactorID, userID: UserID, step: Int64, at: Date, attemptLimit: Int) throws -> Bool

    /// Accepts a code of `step` for the active factor `id`: one conditional UPDATE (`last_step < step`), so a
    /// step is accepted once, whoever asks at the same time.
    /// - Returns: whether this call accepted it.
    func acceptStep(factorID: FactorID, step: Int64, at: Date) throws -> Bool

    /// Replaces the user's recovery codes with `digests`.
    func replaceRecoveryCodes(userID: UserID, digests: [Data], at: Date) throws

    /// Spends the unspent recovery code with this digest: one conditional UPDATE, so of two racing uses exactly
    /// one wins.
    /// - Returns: whether this call spent it.
    func spendRecoveryCode(userID: UserID, digest: Data, at: Date) throws -> Bool

    /// Deletes the active factor `id` of `userID`; when it was the user's last, the recovery codes too.
    /// - Returns: the active factors left, or nil when there was no such factor.
    func removeFactor(id: FactorID, userID: UserID) throws -> Int?

    /// Deletes every factor (pending too), recovery code and ticket of the user.
    /// - Returns: how many active factors there were.
    func removeAllFactors(userID: UserID) throws -> Int

    /// Raises a live session to `assurance` with `methods`, records a second-factor re-authentication at `now`
    /// and replaces its access-token digest and expiry (capped at `created_at + maxSessionAge`).
    /// - Returns: the session as it is now, nil when it is not live.
    func elevateSession(
        id: SessionID, assurance: AssuranceLevel, methods: [AuthenticationMethod], proof: AuthenticationMethod,
        now: Date, accessTokenHash: Data, accessExpiresAt: Date, maxSessionAge: TimeInterval
    ) throws -> Session?

    /// Stores a ticket and records `audit`; when `rehash` is given, replaces the user's password hash with it
    /// while the hash is still `verifiedPasswordHash` (as `completeSignIn` does).
    func issueTicket(_ ticket: NewSecondFactorTicket, rehash: String?, verifiedPasswordHash: String?,
                     audit: AuditEvent) throws

    /// The ticket with this digest while it is unused, unexpired at `now`, below `failureLimit` failures, and its
    /// user on the ticket's password version (enabled or not: the caller says which; every write below needs an
    /// enabled user).
    func liveTicket(hash: Data, now: Date, failureLimit: Int) throws -> SecondFactorTicket?

    /// Counts an attempt on the ticket before its code is judged, only while it is live (see `liveTicket`): one
    /// conditional UPDATE, so of any number of codes sent at once at most `failureLimit` are ever judged.
    /// - Returns: whether the attempt was counted (false: the ticket is not live).
    func countTicketAttempt(hash: Data, now: Date, failureLimit: Int) throws -> Bool

    /// Marks the ticket used if it is still live, its counted attempts (the one that uses it among them) at most
    /// `failureLimit`.
    /// - Returns: whether this call used it.
    func useTicket(hash: Data, now: Date, failureLimit: Int) throws -> Bool

    /// Opens the session a second-factor sign-in earned, with its first refresh token, and trusts its device (as
    /// `completeSignIn` does, without the password check: the ticket was spent in the same transaction).
    func openSecondFactorSession(
        _ session: NewSession, assurance: AssuranceLevel, methods: [AuthenticationMethod], device: DeviceTrust
    ) throws
}
