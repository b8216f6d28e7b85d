import Foundation

/// The `auth_tokens` table (one-time confirm and reset tokens; only SHA-256 digests are stored) and the two
/// flows that redeem them. Every method is one transaction.
///
/// Redemption is always one statement that locks the token's user and the token, decides `TokenRefusal` on
/// what it locked (the rule is written once), marks the token used only when nothing refuses it, and answers
/// with the refusal otherwise (`Redemption`); every write of the completion selects from the redeemed row, so
/// two concurrent redemptions can never both succeed and a refused one writes nothing.
///
/// A token records the user's `password_version` when it is inserted (read from the users row by the insert
/// itself) and redeems only while the user still has that version: every password change ends every link
/// issued before it, including one whose insert raced the change.
public protocol TokenStore: Sendable {
    /// Inserts the token row (with the user's current `password_version`), its mail's outbox row and `audit` (for
    /// the token's user, when given) in one transaction (transactional outbox); nothing at all when no user has
    /// `token.userID`. A token with a code retires the codes of the user's older live tokens of its purpose: one
    /// mail's code works at a time (their links stay, for mails read out of order). A token with `quietSince` is
    /// not inserted (nothing is written) while the user has a token of its purpose created after that, and
    /// otherwise supersedes the user's live tokens of its purpose; its `binding` is stored with it.
    func issueToken(_ token: NewToken, audit: AuditEvent?) throws

    /// A sign-up for an address whose account is still unconfirmed ("contested"), atomically and only while the
    /// user is unconfirmed: unset the password (`UserRecord.unsetPasswordHash`), bump `password_version`,
    /// supersede every live token of the user (`superseded_at = link.createdAt`), then insert `link` under the
    /// new version, with its mail, as `issueToken` does.
    /// - Returns: false, with nothing written, if the user was confirmed meanwhile.
    func contestSignUp(userID: UserID, link: NewToken) throws -> Bool

    /// Reads a token row without changing it (a change-of-address link's new address, for its landing page).
    func lookupToken(hash: Data) throws -> TokenRecord?

    /// What redeeming the token `key` names for `purpose` at `now` would do, without spending it, by the rule a
    /// redemption applies (`TokenRefusal`): the user it would act for, or why it would be refused. A code names
    /// the record a redemption would pick.
    func checkToken(_ key: TokenKey, purpose: TokenPurpose, now: Date) throws -> Redemption<UserRecord>

    /// Confirm, atomically: redeem the token (purpose `confirm`, live, user enabled, *still unconfirmed* and on
    /// the token's password version); set `users.email_confirmed_at = now`; supersede the user's other live
    /// confirm tokens; insert a session `sessionID` for the token's user, created `now`, with `credentials` and
    /// its first refresh token; record `audit` (when given) for the redeemed user (its `userID` is the token's
    /// user, whatever the event says), in the same statement.
    /// - Returns: the confirmed user, or why the token was refused (then nothing was written).
    func completeConfirmation(
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials, audit: AuditEvent?
    ) throws -> Redemption<UserRecord>

    /// Confirm without signing in, atomically: the same redemption and writes as `completeConfirmation`, and no
    /// session (the web landing page confirms for a person who would never
    /// receive the session's tokens).
    /// - Returns: the confirmed user, or why the token was refused (then nothing was written).
    func completeEmailConfirmation(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord>

    /// Accepting an invitation, atomically (see `InvitationAcceptance`).
    /// - Returns: the user as it is now (confirmed, with the password), or why the token was refused (then
    ///   nothing was written).
    func completeInvitation(_ acceptance: InvitationAcceptance) throws -> Redemption<UserRecord>

    /// Reset, atomically (see `PasswordResetCompletion`).
    /// - Returns: what changed, or why the token was refused (then nothing was written).
    func completePasswordReset(_ reset: PasswordResetCompletion) throws -> Redemption<PasswordResetResult>

    /// A change of address, atomically: supersede the user's earlier live `emailChange` tokens (a newer request
    /// replaces the older link, also when the newer one goes to a taken address and so has none), insert `link`
    /// when given (purpose `emailChange`, with `newEmail`) with its mail to the new address, and queue `notices`.
    func requestEmailChange(userID: UserID, link: NewToken?, notices: [ComposedMail], at: Date) throws

    /// The owners of the live changes to the address with key `newEmailKey`, newest first, each once: a code typed
    /// with the address is checked against each of their records (a code is keyed to its account).
    func pendingEmailChangeOwners(newEmailKey: String) throws -> [UserID]

    /// Completes a change of address, atomically: redeem the `emailChange` token `key` names (live, user enabled,
    /// on the token's password version), set the user's `email` and `email_key` to the token's new address and
    /// `email_confirmed_at` to `now` (the link proved the new mailbox), and supersede every other live token of
    /// the user (links mailed to the old address must not act for the account any more).
    /// - Returns: the user as changed, or why the token was refused (nothing written).
    /// - Throws: `UserStoreError.emailTaken` when another account has the address by now; nothing is written
    ///   and the token stays as it was.
    func completeEmailChange(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord>

    /// Sign-in by mail, atomically: redeem the `signIn` record `signIn.key` names (the one rule, and its binding
    /// must equal `signIn.binding`); for an unconfirmed user, confirm the address, unset the password chosen at
    /// sign-up and bump the password version (which ends every other link of the user); insert the session (on
    /// the user's password version after that), its first refresh token and the trusted device as sign-in does;
    /// record `signIn.audit` for the record's user. A record refused only for its binding (`wrongBinding`) counts
    /// one attempt, and at `attemptLimit` is spent (it expires now).
    /// - Returns: the user as it is now, or why the record was refused (then only the attempt was written).
    func completeEmailSignIn(_ signIn: EmailSignInCompletion) throws -> Redemption<UserRecord>

    /// A wrong code was typed for `userID`'s tokens of `purpose`: count one attempt on every live one with a code,
    /// retire the code of those that reach `limit`, and record `audit`, in one statement. The audit row is written
    /// whether or not `userID` is an account (with no user when it is not): a guess at an address without one is
    /// worth an operator's eye, and the same write for both keeps the answer's time from telling them apart. Only
    /// the code: the link stays redeemable, so strangers' guesses at the code can never spend the link in the
    /// owner's mailbox. A sign-in record too: a wrong code needs no more than the address, so it must not spend the
    /// owner's link; attempts with the mail but the wrong secret are counted on the record itself
    /// (`completeEmailSignIn`).
    func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int, audit: AuditEvent?) throws
}

extension TokenStore {
    /// `recordWrongCode` without an audit row.
    public func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int) throws {
        try recordWrongCode(userID: userID, purpose: purpose, at: at, limit: limit, audit: nil)
    }

    /// `issueToken` without an audit row.
    public func issueToken(_ token: NewToken) throws {
        try issueToken(token, audit: nil)
    }

    /// `checkToken` for a link's token.
    public func checkToken(hash: Data, purpose: TokenPurpose, now: Date) throws -> Redemption<UserRecord> {
        try checkToken(.link(hash: hash), purpose: purpose, now: now)
    }
}
