import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func issueToken(_ token: NewToken, audit: AuditEvent?) throws {
        try locked { state in
            // As the statement selects its user: no user, nothing written.
            guard state.users[token.userID] != nil else { return }
            if let quietSince = token.quietSince {
                // One mail per quiet period; a newer one supersedes the older records of its purpose.
                if state.tokens.values.contains(where: {
                    $0.record.userID == token.userID && $0.record.purpose == token.purpose && $0.createdAt > quietSince
                }) { return }
                Self.supersedeTokens(of: token.userID, purposes: [token.purpose], except: nil, at: token.createdAt,
                                     in: &state)
            } else if token.codeDigest != nil {
                // One mail's code works at a time: the older live ones of the purpose lose theirs (not their links).
                for (hash, row) in state.tokens
                where row.record.userID == token.userID && row.record.purpose == token.purpose
                    && row.record.usedAt == nil && row.record.supersededAt == nil {
                    state.tokens[hash]?.codeDigest = nil
                }
            }
            Self.insert(token, into: &state)
            if var audit {
                audit.userID = token.userID
                state.audit.append(audit)
            }
        }
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

    public func checkToken(_ key: TokenKey, purpose: TokenPurpose, now: Date) throws -> Redemption<UserRecord> {
        try locked { state in
            guard let hash = Self.token(key, purpose: purpose, in: state), let row = state.tokens[hash],
                  let user = state.users[row.record.userID]
            else {
                return .refused(.unknown)
            }
            if let refusal = Self.refusal(row, purpose: purpose, now: now, in: state) { return .refused(refusal) }
            return .redeemed(user)
        }
    }

    public func completeConfirmation(
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials, audit: AuditEvent?
    ) throws -> Redemption<UserRecord> {
        try locked { state in
            let redemption = Self.redeemConfirmation(key, now: now, in: &state)
            guard let userID = redemption.value else { return .refused(redemption.refusal ?? .unknown) }
            let version = state.users[userID]?.passwordVersion ?? 1
            Self.insert(NewSession(id: sessionID, userID: userID, createdAt: now, credentials: credentials,
                                   passwordVersion: version), into: &state)
            if var audit {
                audit.userID = userID
                state.audit.append(audit)
            }
            return .redeemed(state.users[userID]!)
        }
    }

    public func completeEmailConfirmation(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord> {
        try locked { state in
            let redemption = Self.redeemConfirmation(key, now: now, in: &state)
            guard let userID = redemption.value else { return .refused(redemption.refusal ?? .unknown) }
            return .redeemed(state.users[userID]!)
        }
    }

    public func completeInvitation(_ acceptance: InvitationAcceptance) throws -> Redemption<UserRecord> {
        try locked { state in
            let now = acceptance.now
            let hash = Self.token(acceptance.key, purpose: .invite, in: state)
            let redemption = Self.redeem(hash, purpose: .invite, now: now, of: acceptance.userID, in: &state)
            guard let hash, let userID = redemption.value, var user = state.users[userID] else {
                return .refused(redemption.refusal ?? .unknown)
            }
            user.passwordHash = acceptance.newPasswordHash
            user.passwordVersion += 1
            user.updatedAt = now
            user.emailConfirmedAt = user.emailConfirmedAt ?? now
            state.users[userID] = user
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: hash, at: now, in: &state)
            if let session = acceptance.session {
                Self.insert(NewSession(id: session.id, userID: userID, createdAt: now,
                                       credentials: session.credentials, passwordVersion: user.passwordVersion),
                            into: &state)
            }
            return .redeemed(user)
        }
    }

    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> Redemption<PasswordResetResult> {
        try locked { state in
            let hash = Self.token(reset.key, purpose: .reset, in: state)
            let redemption = Self.redeem(hash, purpose: .reset, now: reset.now, of: reset.userID, in: &state)
            guard let hash, let userID = redemption.value, var user = state.users[userID] else {
                return .refused(redemption.refusal ?? .unknown)
            }
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
            return .redeemed(PasswordResetResult(user: user, revokedSessions: revoked))
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

    public func pendingEmailChangeOwners(newEmailKey: String) throws -> [UserID] {
        try locked { state in
            var owners: [UserID] = []
            for row in state.tokens.values.sorted(by: { $0.createdAt > $1.createdAt })
            where row.record.purpose == .emailChange && row.record.usedAt == nil && row.record.supersededAt == nil
                && row.record.newEmail.flatMap({ try? EmailAddress($0).key }) == newEmailKey
                && !owners.contains(row.record.userID) {
                owners.append(row.record.userID)
            }
            return owners
        }
    }

    public func completeEmailChange(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord> {
        try locked { state in
            guard let hash = Self.token(key, purpose: .emailChange, in: state), let row = state.tokens[hash],
                  let newEmail = row.record.newEmail.flatMap({ try? EmailAddress($0) })
            else { return .refused(.unknown) }
            // The unique email key is checked before anything is written, as the failed UPDATE aborts in SQL.
            if state.users.values.contains(where: { $0.id != row.record.userID && Self.key(of: $0) == newEmail.key }),
               Self.refusal(row, purpose: .emailChange, now: now, in: state) == nil {
                throw UserStoreError.emailTaken
            }
            let redemption = Self.redeem(hash, purpose: .emailChange, now: now, in: &state)
            guard let userID = redemption.value else { return .refused(redemption.refusal ?? .unknown) }
            state.users[userID]?.email = newEmail.value
            state.users[userID]?.emailConfirmedAt = now
            state.users[userID]?.updatedAt = now
            Self.supersedeTokens(of: userID, purposes: Set(TokenPurpose.allCases), except: hash, at: now, in: &state)
            return .redeemed(state.users[userID]!)
        }
    }

    public func completeEmailSignIn(_ signIn: EmailSignInCompletion) throws -> Redemption<UserRecord> {
        try locked { state in
            let now = signIn.now
            let hash = Self.token(signIn.key, purpose: .signIn, in: state)
            let redemption = Self.redeem(hash, purpose: .signIn, now: now, binding: signIn.binding, in: &state)
            guard let userID = redemption.value, var user = state.users[userID] else {
                if redemption.refusal == .wrongBinding, let hash, let row = state.tokens[hash] {
                    state.tokens[hash]?.codeAttempts += 1
                    if row.codeAttempts + 1 >= signIn.attemptLimit {
                        state.tokens[hash]?.codeDigest = nil
                        state.tokens[hash]?.record.expiresAt = min(row.record.expiresAt, now)
                    }
                }
                return .refused(redemption.refusal ?? .unknown)
            }
            if !user.isConfirmed {
                user.emailConfirmedAt = now
                user.passwordHash = UserRecord.unsetPasswordHash
                user.passwordVersion += 1
                user.updatedAt = now
                state.users[userID] = user
            }
            // A user with a second factor gets no session here: AuthCore stores a ticket instead.
            if user.hasSecondFactor { return .redeemed(user) }
            Self.insert(NewSession(id: signIn.sessionID, userID: userID, createdAt: now,
                                   credentials: signIn.credentials, passwordVersion: user.passwordVersion),
                        methods: [.email], into: &state)
            if state.devices[signIn.device.tokenHash] == nil {
                state.devices[signIn.device.tokenHash] = DeviceRow(userID: userID, expiresAt: signIn.device.expiresAt,
                                                                   lastUsedAt: now)
            }
            var audit = signIn.audit
            audit.userID = userID
            state.audit.append(audit)
            return .redeemed(user)
        }
    }

    /// A redemption: the token marked used unless the one rule refuses it (only a token of `userID`, when given;
    /// for a sign-in record, only with its `binding`).
    public static func redeem(
        _ hash: Data?, purpose: TokenPurpose, now: Date, of userID: UserID? = nil, binding: Data? = nil,
        in state: inout State
    ) -> Redemption<UserID> {
        guard let hash, let row = state.tokens[hash], userID == nil || row.record.userID == userID else {
            return .refused(.unknown)
        }
        if let refusal = refusal(row, purpose: purpose, now: now, binding: binding, in: state) {
            return .refused(refusal)
        }
        state.tokens[hash]?.record.usedAt = now
        return .redeemed(row.record.userID)
    }

    /// The one rule (`TokenRefusal`, in its order), as `PostgresAuthStore.refusal` writes it in SQL.
    static func refusal(
        _ row: TokenRow, purpose: TokenPurpose, now: Date, binding: Data? = nil, in state: State
    ) -> TokenRefusal? {
        guard row.record.purpose == purpose, let user = state.users[row.record.userID] else { return .unknown }
        if row.record.usedAt != nil { return .used }
        if row.record.supersededAt != nil || user.passwordVersion != row.record.passwordVersion { return .superseded }
        if row.record.expiresAt <= now { return .expired }
        if user.isDisabled { return .userDisabled }
        if purpose == .confirm, user.isConfirmed { return .alreadyConfirmed }
        if let binding, row.binding != binding { return .wrongBinding }
        return nil
    }

    public func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int, audit: AuditEvent?) throws {
        try locked { state in
            if var audit {
                audit.userID = state.users[userID] != nil ? userID : nil
                state.audit.append(audit)
            }
            for (hash, row) in state.tokens
            where row.record.userID == userID && row.record.purpose == purpose && row.codeDigest != nil
                && row.record.usedAt == nil && row.record.supersededAt == nil {
                state.tokens[hash]?.codeAttempts += 1
                if row.codeAttempts + 1 >= limit { state.tokens[hash]?.codeDigest = nil }
            }
        }
    }

    /// The digest of the token `key` names: the link's, or among those whose user, purpose and code digest
    /// match a live one before a spent one, then the newest (as `PostgresAuthStore.target` orders them).
    static func token(_ key: TokenKey, purpose: TokenPurpose, in state: State) -> Data? {
        switch key {
        case .link(let hash):
            return hash
        case .code(let userID, let digest):
            let matches = state.tokens.values.filter {
                $0.record.userID == userID && $0.record.purpose == purpose && $0.codeDigest == digest
            }
            func rank(_ row: TokenRow) -> (Int, Date) {
                (row.record.usedAt == nil && row.record.supersededAt == nil ? 1 : 0, row.createdAt)
            }
            return matches.max { rank($0) < rank($1) }?.hash
        }
    }

    /// Confirm's redemption and writes: the user confirmed, its other confirm links superseded.
    static func redeemConfirmation(_ key: TokenKey, now: Date, in state: inout State) -> Redemption<UserID> {
        let hash = token(key, purpose: .confirm, in: state)
        let redemption = redeem(hash, purpose: .confirm, now: now, in: &state)
        guard let hash, let userID = redemption.value else { return redemption }
        state.users[userID]?.emailConfirmedAt = now
        state.users[userID]?.updatedAt = now
        supersedeTokens(of: userID, purposes: [.confirm], except: hash, at: now, in: &state)
        return .redeemed(userID)
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
