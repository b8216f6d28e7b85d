import AuthCore
import Foundation

/// The operator-only writes of `AdminOperations`, on the same in-memory state as the service's ports.
extension InMemoryAuthStore: AdminStore {
    public func insertToken(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date) throws {
        try locked { state in
            let record = TokenRecord(userID: userID, purpose: purpose, expiresAt: expiresAt, usedAt: nil,
                                     passwordVersion: state.users[userID]?.passwordVersion ?? 1)
            state.tokens[hash] = TokenRow(record: record, hash: hash)
        }
    }

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        try locked { state in
            try Self.insert(user, confirmedAt: emailConfirmedAt, into: &state)
            return state.users[user.id]!
        }
    }

    public func sessionOwner(id: SessionID) throws -> UserID? {
        try locked { $0.sessions[id]?.session.userID }
    }

    /// As the foreign keys cascade: tokens, sessions, refresh tokens and devices go with the user.
    public func deleteUser(id: UserID) throws -> Bool {
        try locked { state in
            state.tokens = state.tokens.filter { $0.value.record.userID != id }
            let sessions = Set(state.sessions.filter { $0.value.session.userID == id }.keys)
            state.sessions = state.sessions.filter { !sessions.contains($0.key) }
            state.refreshTokens = state.refreshTokens.filter { !sessions.contains($0.value.sessionID) }
            state.devices = state.devices.filter { $0.value.userID != id }
            return state.users.removeValue(forKey: id) != nil
        }
    }
}
