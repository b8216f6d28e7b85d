import AuthCore
import Foundation
import Synchronization

/// Every store port in memory, with the atomicity the SQL implementation must have: each method runs entirely
/// under one lock, as each is one transaction in PostgreSQL.
final class InMemoryStore: AuthStore, Sendable {
    struct TokenRow {
        var record: TokenRecord
        var hash: Data
    }

    struct SessionRow {
        var session: Session
        var accessTokenHash: Data
        var lastUsedAt: Date?
    }

    struct RefreshRow {
        var sessionID: SessionID
        var expiresAt: Date
        var usedAt: Date?
        var revokedAt: Date?
    }

    struct State {
        var users: [UserID: UserRecord] = [:]
        var tokens: [Data: TokenRow] = [:]
        var outbox: [ComposedMail] = []
        var sessions: [SessionID: SessionRow] = [:]
        var refreshTokens: [Data: RefreshRow] = [:]
        var hits: [String: Int] = [:]
        var failures: [String: SignInFailures] = [:]
        var audit: [AuditEvent] = []
        /// Every key and window the rate limiter was asked about, in order.
        var hitLog: [(key: String, windowStart: Date)] = []
    }

    let state = Mutex(State())

    /// A snapshot for assertions.
    var snapshot: State { state.withLock { $0 } }

    // MARK: UserStore

    func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord {
        try state.withLock { state in
            let key = user.email.lowercased()
            if state.users.values.contains(where: { $0.email.lowercased() == key }) {
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
        let key = email.lowercased()
        return state.withLock { $0.users.values.first { $0.email.lowercased() == key } }
    }

    func findUser(id: UserID) throws -> UserRecord? {
        state.withLock { $0.users[id] }
    }

    func updatePasswordHash(userID: UserID, passwordHash: String, at: Date) throws {
        state.withLock { state in
            state.users[userID]?.passwordHash = passwordHash
            state.users[userID]?.updatedAt = at
        }
    }

    func markEmailConfirmed(userID: UserID, at: Date) throws {
        state.withLock { state in
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = at }
        }
    }

    func setDisabled(userID: UserID, at: Date?) throws {
        state.withLock { $0.users[userID]?.disabledAt = at }
    }

    /// Token row + outbox row: the transactional outbox.
    static func insert(_ token: NewToken, into state: inout State) {
        let record = TokenRecord(userID: token.userID, purpose: token.purpose, expiresAt: token.expiresAt, usedAt: nil)
        state.tokens[token.hash] = TokenRow(record: record, hash: token.hash)
        state.outbox.append(token.mail)
    }
}
