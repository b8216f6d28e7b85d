import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func issueToken(_ token: NewToken) throws {
        try locked { Self.insert(token, into: &$0) }
    }

    public func lookupToken(hash: Data) throws -> TokenRecord? {
        try locked { $0.tokens[hash]?.record }
    }

    public func completeConfirmation(
        tokenHash: Data, now: Date, sessionID: SessionID, credentials: SessionCredentials
    ) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeem(tokenHash, purpose: .confirm, now: now, in: &state) else { return nil }
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = now }
            Self.insert(NewSession(id: sessionID, userID: userID, createdAt: now, credentials: credentials), into: &state)
            return state.users[userID]
        }
    }

    public func completeEmailConfirmation(tokenHash: Data, now: Date) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeem(tokenHash, purpose: .confirm, now: now, in: &state) else { return nil }
            if state.users[userID]?.emailConfirmedAt == nil { state.users[userID]?.emailConfirmedAt = now }
            return state.users[userID]
        }
    }

    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult? {
        try locked { state in
            guard let userID = Self.redeem(reset.tokenHash, purpose: .reset, now: reset.now, in: &state),
                  userID == reset.userID, var user = state.users[userID]
            else { return nil }
            user.passwordHash = reset.newPasswordHash
            user.updatedAt = reset.now
            user.emailConfirmedAt = user.emailConfirmedAt ?? reset.now
            state.users[userID] = user
            let revoked = Self.revokeAll(of: userID, at: reset.now, in: &state)
            for (hash, row) in state.tokens
            where row.record.userID == userID && row.record.purpose == .reset && row.record.usedAt == nil {
                state.tokens[hash]?.record.usedAt = reset.now
            }
            state.outbox.append(reset.mail)
            return PasswordResetResult(user: user, revokedSessions: revoked)
        }
    }

    public func enqueue(mail: ComposedMail) throws {
        try locked { $0.outbox.append(mail) }
    }

    /// The single conditional UPDATE of DESIGN.md §5, plus the "user not disabled" join.
    public static func redeem(_ hash: Data, purpose: TokenPurpose, now: Date, in state: inout State) -> UserID? {
        guard let row = state.tokens[hash], row.record.purpose == purpose, row.record.usedAt == nil,
              row.record.expiresAt > now, let user = state.users[row.record.userID], !user.isDisabled
        else { return nil }
        state.tokens[hash]?.record.usedAt = now
        return row.record.userID
    }
}
