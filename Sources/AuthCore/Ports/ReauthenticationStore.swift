import Foundation

/// The `reauthentication_codes` table (one live code per session, HMAC only) and the sessions' proof of presence
/// (`sessions.reauthenticated_at`). Every method is one transaction.
public protocol ReauthenticationStore: Sendable {
    /// Stores `code` as its session's only code (an earlier one is replaced, with its attempts), queues its mail
    /// and records `audit` (for the code's user), atomically; nothing when the session is not a live one of
    /// `code.userID`.
    func issueReauthenticationCode(_ code: NewReauthenticationCode, audit: AuditEvent?) throws

    /// Records a proof of presence on a live session of `userID` (not revoked, on the user's password version,
    /// user enabled), atomically: for a code, spend it when it matches, is unexpired and has attempts left, else
    /// count one attempt on the session's code; for a password, only while the user's hash is still the
    /// verified one. On proof, set `reauthenticated_at = now`, replace the session's access-token digest and
    /// expiry (capped at `created_at + maxSessionAge`), forget the failures of `forgiveFailuresOf` and record `audit`.
    func completeReauthentication(_ completion: ReauthenticationCompletion) throws -> ReauthenticationResult
}
