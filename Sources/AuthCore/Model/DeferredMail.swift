import Foundation

/// A mail asked for by address alone (forgot password, resend confirmation), queued by the answer and resolved
/// after it (ARCHITECTURE.md, security rule 3). The answer does the same one write for every address;
/// whether the address has an account, and the token and mail that follow if it does, are decided later by
/// `AuthService.resolveDeferredMail`, off the answer's path, so the answer's time cannot tell.
public struct DeferredMail: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// `POST /v1/password/forgot`: a reset link, if the address has an enabled account.
        case passwordReset = "password_reset"
        /// `POST /v1/confirm/resend`: a new confirmation, if the address has an unconfirmed, enabled account.
        case confirmation
        /// `POST /v1/signin/email`: a sign-in link and code bound to `binding`, if the address has an enabled
        /// account (never a new account).
        case signIn = "sign_in"
    }

    public var kind: Kind
    /// The address as typed, normalized (`EmailAddress.value`); never shown to anyone but its own mailbox.
    public var email: String
    /// The client address of the request, for the audit row of the mail it leads to.
    public var ip: String?
    public var requestedAt: Date
    /// For `signIn`: SHA-256 of the asking app instance's secret.
    public var binding: Data?
    /// For `signIn`: the asking client's agent, for the mail's "who asked" line.
    public var userAgent: String?

    public init(
        kind: Kind, email: String, ip: String?, requestedAt: Date, binding: Data? = nil, userAgent: String? = nil
    ) {
        self.binding = binding
        self.userAgent = userAgent
        self.kind = kind
        self.email = email
        self.ip = ip
        self.requestedAt = requestedAt
    }
}
