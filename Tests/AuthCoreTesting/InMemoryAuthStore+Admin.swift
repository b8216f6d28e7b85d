import AuthCore
import Foundation

/// The operator-only writes of `AdminOperations`, on the same in-memory state as the service's ports.
extension InMemoryAuthStore {
    public func insertToken(
        hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, codeDigest: Data?
    ) throws {
        try locked { state in
            let record = TokenRecord(userID: userID, purpose: purpose, expiresAt: expiresAt, usedAt: nil,
                                     passwordVersion: state.users[userID]?.passwordVersion ?? 1)
            state.tokens[hash] = TokenRow(record: record, hash: hash, codeDigest: codeDigest, createdAt: createdAt)
        }
    }

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        try locked { state in
            try Self.insert(user, confirmedAt: emailConfirmedAt, into: &state)
            return state.users[user.id]!
        }
    }

    public func setEmail(userID: UserID, to email: EmailAddress, confirmedAt: Date?, at: Date) throws -> UserRecord? {
        try locked { state in
            guard var user = state.users[userID] else { return nil }
            if state.users.values.contains(where: { $0.id != userID && Self.key(of: $0) == email.key }) {
                throw UserStoreError.emailTaken
            }
            user.email = email.value
            user.emailConfirmedAt = confirmedAt
            user.updatedAt = at
            state.users[userID] = user
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: nil, at: at, in: &state)
            return user
        }
    }

    public func pendingEmailChanges(userID: UserID, now: Date) throws -> [String] {
        try locked { state in
            state.tokens.values
                .filter { $0.record.userID == userID && $0.record.purpose == .emailChange && $0.record.usedAt == nil
                    && $0.record.supersededAt == nil && $0.record.expiresAt > now }
                .sorted { $0.createdAt > $1.createdAt }
                .compactMap(\.record.newEmail)
        }
    }
}
