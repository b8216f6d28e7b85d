import AuthCore
import Foundation
import Synchronization

/// Every AuthCore store port in memory, with the atomicity the SQL implementation must have: each method runs
/// entirely under one lock, as each is one transaction in PostgreSQL. `setFailing(true)` makes every call throw,
/// as a database that went away would.
///
/// Shared by every test target that drives `AuthService` without PostgreSQL (AuthCoreTests, LatchHTTPTests), so
/// the port contracts are modelled once.
public final class InMemoryAuthStore: AuthStore, Sendable {
    /// What a down database throws. Its text holds what a real libpq error may hold (a host and a password), so
    /// tests can prove it never reaches a client.
    public struct DatabaseDown: Error, CustomStringConvertible {
        public init() {}
        public var description: String { "connection to server at 10.0.0.5 failed: password=hunter2" }
    }

    public struct TokenRow: Sendable {
        public var record: TokenRecord
        public var hash: Data
        public var codeDigest: Data?
        public var codeAttempts = 0
        /// `auth_tokens.binding` of a sign-in record.
        public var binding: Data?
        /// `auth_tokens.created_at`: "newest" means this, never the expiry (links of one purpose may live for
        /// different times).
        public var createdAt: Date

        public init(record: TokenRecord, hash: Data, codeDigest: Data? = nil, createdAt: Date) {
            self.record = record
            self.hash = hash
            self.codeDigest = codeDigest
            self.createdAt = createdAt
        }
    }

    public struct SessionRow: Sendable {
        public var session: Session
        public var accessTokenHash: Data
        public var lastUsedAt: Date?
    }

    /// `reauthentication_codes`: a session's one live code.
    public struct ReauthenticationRow: Sendable {
        public var userID: UserID
        public var codeDigest: Data
        public var attempts = 0
        public var expiresAt: Date
    }

    public struct DeviceRow: Sendable {
        public var userID: UserID
        public var expiresAt: Date
        public var lastUsedAt: Date
        public var failures: SignInFailures?
    }

    public struct RefreshRow: Sendable {
        public var sessionID: SessionID
        public var expiresAt: Date
        public var usedAt: Date?
        public var revokedAt: Date?
    }

    /// `passkey_challenges`: a challenge as stored, and when it was spent.
    public struct PasskeyChallengeRow: Sendable {
        public var challenge: NewPasskeyChallenge
        public var usedAt: Date?
    }

    public struct State: Sendable {
        public var users: [UserID: UserRecord] = [:]
        public var tokens: [Data: TokenRow] = [:]
        public var outbox: [ComposedMail] = []
        /// Mails asked for by address, not yet resolved, oldest first.
        public var deferredMail: [DeferredMail] = []
        public var sessions: [SessionID: SessionRow] = [:]
        public var refreshTokens: [Data: RefreshRow] = [:]
        public var devices: [Data: DeviceRow] = [:]
        public var reauthenticationCodes: [SessionID: ReauthenticationRow] = [:]
        /// `mfa_factors`, pending and active.
        public var factors: [FactorID: TOTPFactorRecord] = [:]
        /// `mfa_recovery_codes`: each user's codes by digest, with when each was spent.
        public var recoveryCodes: [UserID: [Data: Date?]] = [:]
        /// `mfa_tickets` by digest.
        public var tickets: [Data: SecondFactorTicket] = [:]
        /// `passkeys`.
        public var passkeys: [PasskeyID: PasskeyRecord] = [:]
        /// `passkey_user_handles`: each user's WebAuthn user handle.
        public var passkeyUserHandles: [UserID: Data] = [:]
        /// `passkey_challenges`, with when each was spent.
        public var passkeyChallenges: [PasskeyChallengeID: PasskeyChallengeRow] = [:]
        public var identities: [IdentityID: IdentityRecord] = [:]
        public var signInNonces: [SignInNonceID: SignInNonceRow] = [:]
        public var providerJobs: [ProviderJobID: ProviderJobRow] = [:]
        public var hits: [String: Int] = [:]
        public var failures: [String: SignInFailures] = [:]
        public var audit: [AuditEvent] = []
        /// `admin_api_keys` by id.
        public var apiKeys: [String: AdminAPIKey] = [:]
        /// Every key and window the rate limiter was asked about, in order.
        public var hitLog: [(key: String, windowStart: Date)] = []
        /// Every call throws `DatabaseDown` while set.
        public var failing = false
    }

    public let state: Mutex<State>

    public init() {
        state = Mutex(State())
    }

    /// A store holding `state`: a transaction's draft.
    init(state: State) {
        self.state = Mutex(state)
    }

    /// The unit of work: `body` runs under this store's lock on a draft copy of the state, which replaces the
    /// state only if `body` returns, so a throw rolls every write back, as PostgreSQL's ROLLBACK does, and no
    /// other call sees a half-done transaction.
    public func transaction<T>(_ body: (any AuthStore) throws -> T) throws -> T {
        try locked { state in
            let draft = InMemoryAuthStore(state: state)
            let value = try body(draft)
            state = draft.snapshot
            return value
        }
    }

    /// A snapshot for assertions.
    public var snapshot: State { state.withLock { $0 } }
    /// Every mail queued so far, in order (with or without a token).
    public var mails: [ComposedMail] { snapshot.outbox }
    public var auditEvents: [AuditEvent] { snapshot.audit }

    public func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Runs `body` as one transaction: under the lock, unless the database is "down".
    func locked<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            if state.failing { throw DatabaseDown() }
            return try body(&state)
        }
    }

    // MARK: UserStore

    /// The identity of a stored address, as `users.email_key` holds it.
    public static func key(of user: UserRecord) -> String {
        EmailAddress(stored: user.email).key
    }

    public func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord {
        try locked { state in
            try Self.insert(user, confirmedAt: nil, into: &state)
            Self.insert(confirmation, into: &state)
            return state.users[user.id]!
        }
    }

    /// Inserts a user unless the email key is taken (the unique index).
    public static func insert(_ user: NewUser, confirmedAt: Date?, into state: inout State) throws {
        if state.users.values.contains(where: { key(of: $0) == user.email.key }) {
            throw UserStoreError.emailTaken
        }
        state.users[user.id] = UserRecord(
            id: user.id, email: user.email.value, passwordHash: user.passwordHash, emailConfirmedAt: confirmedAt,
            createdAt: user.createdAt, updatedAt: user.createdAt, locale: user.locale)
    }

    public func setLocale(userID: UserID, locale: String, at: Date) throws -> UserRecord? {
        try locked { state in
            state.users[userID]?.locale = locale
            state.users[userID]?.updatedAt = at
            return state.users[userID]
        }
    }

    public func findUser(email: EmailAddress) throws -> UserRecord? {
        try locked { $0.users.values.first { Self.key(of: $0) == email.key } }
    }

    public func findUser(id: UserID) throws -> UserRecord? {
        try locked { $0.users[id] }
    }

    /// Stamps `updatedAt` with the confirmation, as the SQL update does.
    public func markEmailConfirmed(userID: UserID, at: Date) throws {
        try locked { state in
            if state.users[userID]?.emailConfirmedAt == nil {
                state.users[userID]?.emailConfirmedAt = at
                state.users[userID]?.updatedAt = at
            }
        }
    }

    /// Disabling stamps `updatedAt` with its time, as the SQL update does; re-enabling has no time (PostgreSQL's
    /// trigger stamps its own clock), so it leaves `updatedAt` alone.
    public func setDisabled(userID: UserID, at: Date?) throws {
        try locked { state in
            state.users[userID]?.disabledAt = at
            if let at { state.users[userID]?.updatedAt = at }
        }
    }

    /// Token row (under the user's current password version) + outbox row: the transactional outbox.
    public static func insert(_ token: NewToken, into state: inout State) {
        let record = TokenRecord(userID: token.userID, purpose: token.purpose, expiresAt: token.expiresAt, usedAt: nil,
                                 passwordVersion: state.users[token.userID]?.passwordVersion ?? 1,
                                 newEmail: token.newEmail?.value)
        state.tokens[token.hash] = TokenRow(record: record, hash: token.hash, codeDigest: token.codeDigest,
                                            createdAt: token.createdAt)
        state.tokens[token.hash]?.binding = token.binding
        state.outbox.append(token.mail)
    }
}
