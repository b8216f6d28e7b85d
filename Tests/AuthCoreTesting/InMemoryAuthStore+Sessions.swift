import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func completeSignIn(_ signIn: SignInCompletion) throws -> Bool {
        try locked { state in
            let userID = signIn.session.userID
            guard state.users[userID]?.passwordHash == signIn.verifiedPasswordHash else { return false }
            if let rehash = signIn.rehash {
                state.users[userID]?.passwordHash = rehash
                state.users[userID]?.updatedAt = signIn.session.createdAt
            }
            Self.insert(signIn.session, into: &state)
            let now = signIn.session.createdAt
            let device = signIn.device
            if state.devices[device.tokenHash] == nil {
                state.devices[device.tokenHash] = DeviceRow(userID: userID, expiresAt: device.expiresAt, lastUsedAt: now)
            } else {
                state.devices[device.tokenHash]?.expiresAt = device.expiresAt
                state.devices[device.tokenHash]?.lastUsedAt = now
                state.devices[device.tokenHash]?.failures = nil
            }
            if let key = signIn.forgiveFailuresOf { state.failures.removeValue(forKey: key) }
            state.audit.append(signIn.audit)
            return true
        }
    }

    public func findTrustedDevice(tokenHash: Data) throws -> TrustedDevice? {
        try locked { state in
            guard let row = state.devices[tokenHash], let user = state.users[row.userID] else { return nil }
            return TrustedDevice(userID: row.userID, emailKey: Self.key(of: user), expiresAt: row.expiresAt,
                                 failures: row.failures)
        }
    }

    public func recordDeviceFailure(tokenHash: Data, at: Date, forgetBefore: Date) throws -> SignInFailures? {
        try locked { state in
            guard let row = state.devices[tokenHash] else { return nil }
            var count = 1
            if let previous = row.failures, previous.lastFailureAt >= forgetBefore { count = previous.count + 1 }
            let failures = SignInFailures(count: count, lastFailureAt: at)
            state.devices[tokenHash]?.failures = failures
            return failures
        }
    }

    public func findSession(accessTokenHash: Data) throws -> SessionLookup? {
        try locked { state in
            guard let row = state.sessions.values.first(where: { $0.accessTokenHash == accessTokenHash }),
                  let user = state.users[row.session.userID]
            else { return nil }
            return SessionLookup(session: row.session, user: user)
        }
    }

    public func rotateRefreshToken(
        presentedHash: Data, successor: SessionCredentials, now: Date, maxSessionAge: TimeInterval,
        alarm: (_ userID: UserID, _ sessionID: SessionID) -> AuditEvent
    ) throws -> RefreshRotation {
        try locked { state in
            guard let presented = state.refreshTokens[presentedHash],
                  let row = state.sessions[presented.sessionID], let user = state.users[row.session.userID]
            else { return .unknown }
            if presented.revokedAt != nil || row.session.revokedAt != nil
                || row.session.passwordVersion != user.passwordVersion {
                return .revoked(userID: user.id, sessionID: presented.sessionID)
            }
            if presented.usedAt != nil {
                Self.revoke(presented.sessionID, at: now, in: &state)
                state.audit.append(alarm(user.id, presented.sessionID))
                return .reused(userID: user.id, sessionID: presented.sessionID)
            }
            let endOfLife = row.session.createdAt.addingTimeInterval(maxSessionAge)
            if presented.expiresAt <= now || endOfLife <= now { return .expired }
            if user.isDisabled { return .userDisabled }
            state.refreshTokens[presentedHash]?.usedAt = now
            let refreshExpiresAt = min(successor.refreshExpiresAt, endOfLife)
            state.refreshTokens[successor.refreshTokenHash] = RefreshRow(
                sessionID: presented.sessionID, expiresAt: refreshExpiresAt)
            var updated = row
            updated.accessTokenHash = successor.accessTokenHash
            updated.session.accessExpiresAt = min(successor.accessExpiresAt, endOfLife)
            updated.session.refreshExpiresAt = refreshExpiresAt
            updated.session.ip = successor.ip
            updated.session.userAgent = successor.userAgent
            updated.lastUsedAt = now
            state.sessions[presented.sessionID] = updated
            return .rotated(SessionLookup(session: updated.session, user: user))
        }
    }

    public func revokeSession(id: SessionID, at: Date) throws {
        try locked { Self.revoke(id, at: at, in: &$0) }
    }

    public func revokeSession(id: SessionID, ofUser userID: UserID, at: Date) throws -> Bool {
        try locked { state in
            guard let row = state.sessions[id], row.session.userID == userID, row.session.revokedAt == nil else {
                return false
            }
            Self.revoke(id, at: at, in: &state)
            return true
        }
    }

    public func revokeAllSessions(userID: UserID, except: SessionID?, at: Date) throws -> Int {
        try locked { Self.revokeAll(of: userID, except: except, at: at, in: &$0) }
    }

    public static func insert(
        _ session: NewSession, assurance: AssuranceLevel = .aal1, methods: [AuthenticationMethod] = [.password],
        into state: inout State
    ) {
        let credentials = session.credentials
        let value = Session(id: session.id, userID: session.userID, accessExpiresAt: credentials.accessExpiresAt,
                            refreshExpiresAt: credentials.refreshExpiresAt, createdAt: session.createdAt,
                            userAgent: credentials.userAgent, ip: credentials.ip,
                            passwordVersion: session.passwordVersion, assurance: assurance, methods: methods)
        state.sessions[session.id] = SessionRow(session: value, accessTokenHash: credentials.accessTokenHash)
        state.refreshTokens[credentials.refreshTokenHash] = RefreshRow(
            sessionID: session.id, expiresAt: credentials.refreshExpiresAt)
    }

    /// Revokes a session and its whole refresh-token family.
    public static func revoke(_ id: SessionID, at: Date, in state: inout State) {
        if state.sessions[id]?.session.revokedAt == nil { state.sessions[id]?.session.revokedAt = at }
        for (hash, row) in state.refreshTokens where row.sessionID == id && row.revokedAt == nil {
            state.refreshTokens[hash]?.revokedAt = at
        }
    }

    public static func revokeAll(of userID: UserID, except: SessionID? = nil, at: Date, in state: inout State) -> Int {
        let live = state.sessions.values.filter {
            $0.session.userID == userID && $0.session.revokedAt == nil && $0.session.id != except
        }
        for row in live { revoke(row.session.id, at: at, in: &state) }
        return live.count
    }
}
