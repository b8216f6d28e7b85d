import AuthCore
import Foundation
import Synchronization

/// Every AuthCore store port in memory, each call atomic under one lock. `failure` makes every call throw, as a
/// database that went away would.
final class InMemoryAuthStore: AuthStore, Sendable {
    struct DatabaseDown: Error, CustomStringConvertible {
        var description: String { "connection to server at 10.0.0.5 failed: password=hunter2" }
    }

    struct StoredSession {
        var session: Session
        var accessHash: Data
        var refreshHash: Data
    }

    struct State {
        var users: [UserID: UserRecord] = [:]
        var tokens: [Data: TokenRecord] = [:]
        var sessions: [SessionID: StoredSession] = [:]
        /// Spent refresh digests and their family, to detect reuse.
        var spentRefresh: [Data: SessionID] = [:]
        var mails: [ComposedMail] = []
        var hits: [String: Int] = [:]
        var failures: [String: SignInFailures] = [:]
        var audit: [AuditEvent] = []
        var failing = false
    }

    let state = Mutex(State())

    var mails: [ComposedMail] { state.withLock { $0.mails } }
    var auditEvents: [AuditEvent] { state.withLock { $0.audit } }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    private func locked<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            if state.failing { throw DatabaseDown() }
            return try body(&state)
        }
    }

    // MARK: UserStore

    func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord {
        try locked { state in
            if state.users.values.contains(where: { $0.email.lowercased() == user.email.lowercased() }) {
                throw UserStoreError.emailTaken
            }
            let record = UserRecord(id: user.id, email: user.email, passwordHash: user.passwordHash,
                                    createdAt: user.createdAt, updatedAt: user.createdAt)
            state.users[user.id] = record
            Self.insert(confirmation, into: &state)
            return record
        }
    }

    func findUser(email: String) throws -> UserRecord? {
        try locked { state in state.users.values.first { $0.email.lowercased() == email.lowercased() } }
    }

    func findUser(id: UserID) throws -> UserRecord? {
        try locked { $0.users[id] }
    }

    func updatePasswordHash(userID: UserID, passwordHash: String, at: Date) throws {
        try locked { $0.users[userID]?.passwordHash = passwordHash }
    }

    func markEmailConfirmed(userID: UserID, at: Date) throws {
        try locked { state in
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = at }
        }
    }

    func setDisabled(userID: UserID, at: Date?) throws {
        try locked { $0.users[userID]?.disabledAt = at }
    }

    // MARK: TokenStore

    func issueToken(_ token: NewToken) throws {
        try locked { Self.insert(token, into: &$0) }
    }

    func lookupToken(hash: Data) throws -> TokenRecord? {
        try locked { $0.tokens[hash] }
    }

    func completeConfirmation(
        tokenHash: Data, now: Date, sessionID: SessionID, credentials: SessionCredentials
    ) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeem(tokenHash, purpose: .confirm, now: now, in: &state) else { return nil }
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = now }
            let session = NewSession(id: sessionID, userID: userID, createdAt: now, credentials: credentials)
            Self.insert(session, into: &state)
            return state.users[userID]
        }
    }

    func completeEmailConfirmation(tokenHash: Data, now: Date) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeem(tokenHash, purpose: .confirm, now: now, in: &state) else { return nil }
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = now }
            return state.users[userID]
        }
    }

    func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult? {
        try locked { state in
            guard let userID = Self.redeem(reset.tokenHash, purpose: .reset, now: reset.now, in: &state),
                  userID == reset.userID
            else { return nil }
            state.users[userID]?.passwordHash = reset.newPasswordHash
            let revoked = Self.revokeAll(userID: userID, at: reset.now, in: &state)
            state.mails.append(reset.mail)
            guard let user = state.users[userID] else { return nil }
            return PasswordResetResult(user: user, revokedSessions: revoked)
        }
    }

    // MARK: SessionStore

    func createSession(_ session: NewSession) throws {
        try locked { Self.insert(session, into: &$0) }
    }

    func findSession(accessTokenHash: Data) throws -> SessionLookup? {
        try locked { state in
            guard let stored = state.sessions.values.first(where: { $0.accessHash == accessTokenHash }),
                  let user = state.users[stored.session.userID]
            else { return nil }
            return SessionLookup(session: stored.session, user: user)
        }
    }

    func rotateRefreshToken(presentedHash: Data, successor: SessionCredentials, now: Date) throws -> RefreshRotation {
        try locked { state in
            if let family = state.spentRefresh[presentedHash], let stored = state.sessions[family] {
                state.sessions[family]?.session.revokedAt = stored.session.revokedAt ?? now
                return .reused(userID: stored.session.userID, sessionID: family)
            }
            guard var stored = state.sessions.values.first(where: { $0.refreshHash == presentedHash }),
                  let user = state.users[stored.session.userID]
            else { return .unknown }
            if stored.session.revokedAt != nil { return .reused(userID: user.id, sessionID: stored.session.id) }
            if stored.session.refreshExpiresAt <= now { return .expired }
            if user.isDisabled { return .userDisabled }
            state.spentRefresh[presentedHash] = stored.session.id
            stored.accessHash = successor.accessTokenHash
            stored.refreshHash = successor.refreshTokenHash
            stored.session.accessExpiresAt = successor.accessExpiresAt
            stored.session.refreshExpiresAt = successor.refreshExpiresAt
            state.sessions[stored.session.id] = stored
            return .rotated(SessionLookup(session: stored.session, user: user))
        }
    }

    func revokeSession(id: SessionID, at: Date) throws {
        try locked { state in
            if state.sessions[id]?.session.revokedAt == nil { state.sessions[id]?.session.revokedAt = at }
        }
    }

    func revokeAllSessions(userID: UserID, at: Date) throws -> Int {
        try locked { Self.revokeAll(userID: userID, at: at, in: &$0) }
    }

    // MARK: MailOutbox, RateLimitStore, SignInFailureStore, AuditLog

    func enqueue(mail: ComposedMail) throws {
        try locked { $0.mails.append(mail) }
    }

    func recordHit(key: String, windowStart: Date) throws -> Int {
        try locked { state in
            let key = "\(key)@\(windowStart.timeIntervalSince1970)"
            state.hits[key, default: 0] += 1
            return state.hits[key] ?? 0
        }
    }

    func signInFailures(emailKey: String) throws -> SignInFailures? {
        try locked { $0.failures[emailKey] }
    }

    func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures {
        try locked { state in
            var failures = state.failures[emailKey] ?? SignInFailures(count: 0, lastFailureAt: at)
            if failures.lastFailureAt < forgetBefore { failures.count = 0 }
            failures.count += 1
            failures.lastFailureAt = at
            state.failures[emailKey] = failures
            return failures
        }
    }

    func resetSignInFailures(emailKey: String) throws {
        try locked { _ = $0.failures.removeValue(forKey: emailKey) }
    }

    func record(_ event: AuditEvent) throws {
        try locked { $0.audit.append(event) }
    }

    // MARK: Helpers (caller holds the lock)

    private static func insert(_ token: NewToken, into state: inout State) {
        state.tokens[token.hash] = TokenRecord(userID: token.userID, purpose: token.purpose,
                                               expiresAt: token.expiresAt, usedAt: nil)
        state.mails.append(token.mail)
    }

    private static func insert(_ session: NewSession, into state: inout State) {
        let credentials = session.credentials
        let stored = Session(id: session.id, userID: session.userID, accessExpiresAt: credentials.accessExpiresAt,
                             refreshExpiresAt: credentials.refreshExpiresAt, createdAt: session.createdAt,
                             userAgent: credentials.userAgent, ip: credentials.ip)
        state.sessions[session.id] = StoredSession(session: stored, accessHash: credentials.accessTokenHash,
                                                   refreshHash: credentials.refreshTokenHash)
    }

    private static func redeem(_ hash: Data, purpose: TokenPurpose, now: Date, in state: inout State) -> UserID? {
        guard let token = state.tokens[hash], token.purpose == purpose, token.usedAt == nil, token.expiresAt > now,
              let user = state.users[token.userID], !user.isDisabled
        else { return nil }
        state.tokens[hash]?.usedAt = now
        return token.userID
    }

    private static func revokeAll(userID: UserID, at: Date, in state: inout State) -> Int {
        var count = 0
        for (id, stored) in state.sessions where stored.session.userID == userID && stored.session.revokedAt == nil {
            state.sessions[id]?.session.revokedAt = at
            count += 1
        }
        return count
    }
}
