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
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials, audit: AuditEvent?
    ) throws -> UserRecord? {
        try locked { state in
            guard let userID = Self.redeemConfirmation(key, now: now, in: &state) else { return nil }
            let version = state.users[userID]?.passwordVersion ?? 1
            Self.insert(NewSession(id: sessionID, userID: userID, createdAt: now, credentials: credentials,
                                   passwordVersion: version), into: &state)
            if var audit {
                audit.userID = userID
                state.audit.append(audit)
            }
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

    public func enqueue(mails: [ComposedMail]) throws {
        try locked { $0.outbox.append(contentsOf: mails) }
    }

    public func requestEmailChange(userID: UserID, link: NewToken?, notices: [ComposedMail], at: Date) throws {
        try locked { state in
            Self.supersedeTokens(of: userID, purposes: [.emailChange], except: nil, at: at, in: &state)
            if let link { Self.insert(link, into: &state) }
            state.outbox.append(contentsOf: notices)
        }
    }

    public func pendingEmailChangeOwner(newEmailKey: String) throws -> UserID? {
        try locked { state in
            state.tokens.values
                .filter { $0.record.purpose == .emailChange && $0.record.usedAt == nil && $0.record.supersededAt == nil
                    && $0.record.newEmail.flatMap { try? EmailAddress($0).key } == newEmailKey }
                .max { $0.record.expiresAt < $1.record.expiresAt }?.record.userID
        }
    }

    public func completeEmailChange(_ key: TokenKey, now: Date) throws -> UserRecord? {
        try locked { state in
            guard let hash = Self.token(key, purpose: .emailChange, in: state),
                  let row = state.tokens[hash], let newEmail = row.record.newEmail.flatMap({ try? EmailAddress($0) })
            else { return nil }
            // The unique email key is checked before anything is written, as the failed UPDATE aborts in SQL.
            if state.users.values.contains(where: { $0.id != row.record.userID && Self.key(of: $0) == newEmail.key }),
               Self.isRedeemable(row, purpose: .emailChange, now: now, in: state) {
                throw UserStoreError.emailTaken
            }
            guard let userID = Self.redeem(hash, purpose: .emailChange, now: now, in: &state) else { return nil }
            state.users[userID]?.email = newEmail.value
            state.users[userID]?.emailConfirmedAt = now
            state.users[userID]?.updatedAt = now
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: hash, at: now, in: &state)
            return state.users[userID]
        }
    }

    /// The single conditional UPDATE of a redemption: live (unused, not superseded, unexpired), its user enabled
    /// and still on the token's password version.
    public static func redeem(_ hash: Data, purpose: TokenPurpose, now: Date, in state: inout State) -> UserID? {
        guard let row = state.tokens[hash], isRedeemable(row, purpose: purpose, now: now, in: state) else {
            return nil
        }
        state.tokens[hash]?.record.usedAt = now
        return row.record.userID
    }

    /// Live (unused, not superseded, unexpired), of `purpose`, its user enabled and still on the token's password
    /// version (and, to confirm, unconfirmed).
    static func isRedeemable(_ row: TokenRow, purpose: TokenPurpose, now: Date, in state: State) -> Bool {
        guard row.record.purpose == purpose, row.record.usedAt == nil, row.record.supersededAt == nil,
              row.record.expiresAt > now, let user = state.users[row.record.userID], !user.isDisabled,
              user.passwordVersion == row.record.passwordVersion
        else { return false }
        return purpose != .confirm || !user.isConfirmed
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
