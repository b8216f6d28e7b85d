import Foundation

/// The `audit_log` table (DESIGN.md §6.9).
public protocol AuditLog: Sendable {
    func record(_ event: AuditEvent) throws
}

/// One audit row. `detail` never holds a token, password or hash: AuthCore only puts reasons, scopes, counts,
/// emails and ids there.
public struct AuditEvent: Hashable, Sendable {
    public var name: AuditEventName
    public var at: Date
    public var userID: UserID?
    public var ip: String?
    /// Stored as jsonb.
    public var detail: [String: String]

    public init(name: AuditEventName, at: Date, userID: UserID?, ip: String?, detail: [String: String] = [:]) {
        self.name = name
        self.at = at
        self.userID = userID
        self.ip = ip
        self.detail = detail
    }
}

/// What happened; the raw value is stored in `audit_log.event`.
public enum AuditEventName: String, Hashable, Sendable, Codable, CaseIterable {
    case signUp = "sign_up"
    case signUpExistingEmail = "sign_up_existing_email"
    case confirmationResent = "confirmation_resent"
    case emailConfirmed = "email_confirmed"
    case signInSucceeded = "sign_in_succeeded"
    case signInFailed = "sign_in_failed"
    case refreshTokenReused = "refresh_token_reused"
    case sessionRevoked = "session_revoked"
    case passwordResetRequested = "password_reset_requested"
    case passwordReset = "password_reset"
    /// For latchctl, which issues tokens directly.
    case tokenIssuedByCLI = "token_issued_by_cli"
    /// latchctl re-enabled a disabled account.
    case userEnabled = "user_enabled"
    /// latchctl deleted an account (the audit log keeps its rows).
    case userDeleted = "user_deleted"
}
