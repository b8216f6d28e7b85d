import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func issueToken(_ token: NewToken) throws {
        try locked { Self.insert(token, into: &$0) }
    }

    public func contestSignUp(userID: UserID, link: NewToken) throws -> Bool {
        try locked { state in
            guard let user = state.users[userID], !user.isConfirmed else { return false }
            state.users[userID]?.passwordHash = UserRecord.unsetPasswordHash
            state.users[userID]?.passwordVersion += 1
            state.users[userID]?.updatedAt = link.createdAt
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: nil, at: link.createdAt,
                                 in: &state)
            Self.insert(link, into: &state)
            return true
        }
    }

    public func lookupToken(hash: Data) throws -> TokenRecord? {
        try locked { $0.tokens[hash]?.record }
    }

    public func completeConfirmation(
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials
    ) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeemConfirmation(key, now: now, in: &state) else { return nil }
            let version = state.users[userID]?.passwordVersion ?? 1
            Self.insert(NewSession(id: sessionID, userID: userID, createdAt: now, credentials: credentials,
                                   passwordVersion: version), into: &state)
            return state.users[userID]
        }
    }

    public func completeEmailConfirmation(_ key: TokenKey, now: Date) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeemConfirmation(key, now: now, in: &state) else { return nil }
            return state.users[userID]
        }
    }

    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult? {
        try locked { state in
            guard let hash = Self.token(reset.key, purpose: .reset, in: state),
                  let userID = Self.redeem(hash, purpose: .reset, now: reset.now, in: &state),
                  userID == reset.userID, var user = state.users[userID]
            else { return nil }
            user.passwordHash = reset.newPasswordHash
            user.passwordVersion += 1
            user.updatedAt = reset.now
            user.emailConfirmedAt = user.emailConfirmedAt ?? reset.now
            state.users[userID] = user
            let revoked = Self.revokeAll(of: userID, at: reset.now, in: &state)
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: hash,
                                 at: reset.now, in: &state)
            state.failures.removeValue(forKey: Self.key(of: user))
            state.outbox.append(reset.mail)
            return PasswordResetResult(user: user, revokedSessions: revoked)
        }
    }

    public func enqueue(mail: ComposedMail) throws {
        try locked { $0.outbox.append(mail) }
    }

    /// The single conditional UPDATE of a redemption: live (unused, not superseded, unexpired), its user enabled
    /// and still on the token's password version.
    public static func redeem(_ hash: Data, purpose: TokenPurpose, now: Date, in state: inout State) -> UserID? {
        guard let row = state.tokens[hash], row.record.purpose == purpose, row.record.usedAt == nil,
              row.record.supersededAt == nil, row.record.expiresAt > now,
              let user = state.users[row.record.userID], !user.isDisabled,
              user.passwordVersion == row.record.passwordVersion,
              purpose != .confirm || !user.isConfirmed
        else { return nil }
        state.tokens[hash]?.record.usedAt = now
        return row.record.userID
    }

    public func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int) throws {
        try locked { state in
            for (hash, row) in state.tokens
            where row.record.userID == userID && row.record.purpose == purpose && row.codeDigest != nil
                && row.record.usedAt == nil && row.record.supersededAt == nil {
                state.tokens[hash]?.codeAttempts += 1
                if row.codeAttempts + 1 >= limit { state.tokens[hash]?.record.supersededAt = at }
            }
        }
    }

    /// The digest of the token `key` names: the link's, or the one whose user and code digest match.
    static func token(_ key: TokenKey, purpose: TokenPurpose, in state: State) -> Data? {
        switch key {
        case .link(let hash): hash
        case .code(let userID, let digest):
            state.tokens.first { $0.value.record.userID == userID && $0.value.record.purpose == purpose
                && $0.value.codeDigest == digest }?.key
        }
    }

    /// Confirm's redemption and writes: the user confirmed, its other confirm links superseded.
    static func redeemConfirmation(_ key: TokenKey, now: Date, in state: inout State) -> UserID? {
        guard let hash = token(key, purpose: .confirm, in: state),
              let userID = redeem(hash, purpose: .confirm, now: now, in: &state) else { return nil }
        state.users[userID]?.emailConfirmedAt = now
        state.users[userID]?.updatedAt = now
        supersedeTokens(of: userID, purposes: [.confirm], except: hash, at: now, in: &state)
        return userID
    }

    public static func supersedeTokens(
        of userID: UserID, purposes: Set<TokenPurpose>, except spared: Data?, at: Date, in state: inout State
    ) {
        for (hash, row) in state.tokens
        where row.record.userID == userID && purposes.contains(row.record.purpose) && hash != spared
            && row.record.usedAt == nil && row.record.supersededAt == nil {
            state.tokens[hash]?.record.supersededAt = at
        }
    }
}
