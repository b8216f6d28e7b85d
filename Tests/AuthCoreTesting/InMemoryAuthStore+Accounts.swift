import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func changePassword(_ change: PasswordChange) throws -> Bool {
        try locked { state in
            guard var user = state.users[change.userID], user.passwordHash == change.verifiedPasswordHash else {
                return false
            }
            user.passwordHash = change.newPasswordHash
            user.passwordVersion += 1
            user.updatedAt = change.now
            state.users[change.userID] = user
            if state.sessions[change.keepSession]?.session.revokedAt == nil {
                state.sessions[change.keepSession]?.session.passwordVersion = user.passwordVersion
            }
            _ = Self.revokeAll(of: change.userID, except: change.keepSession, at: change.now, in: &state)
            Self.supersedeTokens(of: change.userID, purposes: Set(TokenPurpose.allCases), except: nil,
                                 at: change.now, in: &state)
            state.failures.removeValue(forKey: Self.key(of: user))
            state.outbox.append(change.notice)
            return true
        }
    }

    public func deleteAccount(_ deletion: AccountDeletion) throws -> Bool {
        try locked { state in
            let id = deletion.userID
            guard let user = state.users[id],
                  deletion.verifiedPasswordHash.map({ $0 == user.passwordHash }) ?? true
            else { return false }
            // Only the account's own rows: an address it once named may be someone else's.
            state.outbox.removeAll { $0.userID == id }
            state.outbox.append(deletion.notice)
            let key = Self.key(of: user)
            state.audit = state.audit.map { event in
                guard event.userID == id else { return event }
                var forgotten = event
                for field in ["email", "old_email", "new_email"] { forgotten.detail[field] = nil }
                return forgotten
            }
            let sessions = Set(state.sessions.filter { $0.value.session.userID == id }.keys)
            state.failures.removeValue(forKey: key)
            for session in sessions { state.failures.removeValue(forKey: "session:\(session)") }
            state.hits = state.hits.filter { !$0.key.contains(":email:" + key + "@") }
            // As the foreign keys cascade: tokens, sessions, refresh tokens, devices and passkeys (with the handle
            // and the challenges bound to the user) go with the user.
            state.tokens = state.tokens.filter { $0.value.record.userID != id }
            state.sessions = state.sessions.filter { !sessions.contains($0.key) }
            state.refreshTokens = state.refreshTokens.filter { !sessions.contains($0.value.sessionID) }
            state.devices = state.devices.filter { $0.value.userID != id }
            state.passkeys = state.passkeys.filter { $0.value.userID != id }
            Self.forgetIdentities(of: id, in: &state)
            state.passkeyUserHandles.removeValue(forKey: id)
            state.passkeyChallenges = state.passkeyChallenges.filter { $0.value.challenge.userID != id }
            state.users.removeValue(forKey: id)
            return true
        }
    }

    public func liveSessions(userID: UserID, now: Date) throws -> [SessionActivity] {
        try locked { state in
            guard let user = state.users[userID] else { return [] }
            return state.sessions.values
                .filter { $0.session.userID == userID && $0.session.revokedAt == nil
                    && $0.session.refreshExpiresAt > now && $0.session.passwordVersion == user.passwordVersion }
                .sorted { ($0.session.createdAt, $0.session.id.description) > ($1.session.createdAt, $1.session.id.description) }
                .map { SessionActivity(session: $0.session, lastUsedAt: $0.lastUsedAt ?? $0.session.createdAt) }
        }
    }
}
