import Foundation

/// A code mailed to a signed-in user to prove presence (`POST /v1/reauthenticate/email`): it belongs to one
/// session, and a newer one replaces it.
public struct NewReauthenticationCode: Hashable, Sendable {
    public var sessionID: SessionID
    public var userID: UserID
    /// `OneTimeCodes.digest` of the code (purpose `ReauthenticationCode.purpose`).
    public var codeDigest: Data
    public var createdAt: Date
    public var expiresAt: Date
    /// The mail carrying the code, queued in the same transaction.
    public var mail: ComposedMail

    public init(
        sessionID: SessionID, userID: UserID, codeDigest: Data, createdAt: Date, expiresAt: Date, mail: ComposedMail
    ) {
        self.sessionID = sessionID
        self.userID = userID
        self.codeDigest = codeDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.mail = mail
    }
}

/// A proof of presence to record on a session, with the access token that carries it (see
/// `ReauthenticationStore.completeReauthentication`).
public struct ReauthenticationCompletion: Hashable, Sendable {
    public enum Proof: Hashable, Sendable {
        /// The password was verified against this PHC string; it must still be the user's.
        case password(verifiedHash: String)
        /// The code typed: its digest, and how many wrong codes the session's code survives.
        case code(digest: Data, attemptLimit: Int)
        /// A TOTP code or recovery code, already spent in the same transaction.
        case secondFactor(AuthenticationMethod)

        /// What `sessions.reauthenticated_with` records.
        public var method: AuthenticationMethod {
            switch self {
            case .password: .password
            case .code: .email
            case .secondFactor(let method): method
            }
        }
    }

    public var sessionID: SessionID
    public var userID: UserID
    public var proof: Proof
    /// Whole seconds: the new access token's `auth_time` and `iat`.
    public var now: Date
    /// The new access token's digest and expiry (capped by the store at the session's end of life).
    public var accessTokenHash: Data
    public var accessExpiresAt: Date
    public var maxSessionAge: TimeInterval
    /// The failure key (`SignInFailureStore`) of the session's earlier failed proofs, forgotten with the proof: a
    /// few typos before a success must not bring the next typo closer to a lockout.
    public var forgiveFailuresOf: String?
    /// The `reauthenticated` row, written only with the proof.
    public var audit: AuditEvent

    public init(
        sessionID: SessionID, userID: UserID, proof: Proof, now: Date, accessTokenHash: Data, accessExpiresAt: Date,
        maxSessionAge: TimeInterval, forgiveFailuresOf: String? = nil, audit: AuditEvent
    ) {
        self.forgiveFailuresOf = forgiveFailuresOf
        self.sessionID = sessionID
        self.userID = userID
        self.proof = proof
        self.now = now
        self.accessTokenHash = accessTokenHash
        self.accessExpiresAt = accessExpiresAt
        self.maxSessionAge = maxSessionAge
        self.audit = audit
    }
}

/// What `completeReauthentication` did.
public enum ReauthenticationResult: Hashable, Sendable {
    /// Recorded: the session as it is now (new access token, `reauthenticatedAt` set).
    case reauthenticated(Session)
    /// The code was wrong, expired, spent by wrong attempts, or never asked for; one attempt was counted.
    case wrongCode
    /// The session ended (signed out, password changed or the user disabled) or the password changed since it
    /// was verified: nothing written.
    case sessionEnded
}
