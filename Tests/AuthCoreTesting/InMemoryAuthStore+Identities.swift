import AuthCore
import Foundation

extension InMemoryAuthStore {
    /// A `sign_in_nonces` row.
    public struct SignInNonceRow: Sendable {
        public var nonce: NewSignInNonce
        public var usedAt: Date?
    }

    /// A `provider_jobs` row: its state as the SQL names it (`exchange`, `held`, `revoke`, `done`, `failed`).
    public struct ProviderJobRow: Sendable {
        public var job: ProviderJob
        public var state: String
        public var revokeAfter = false
        public var lastError: String?
    }

    public func storeSignInNonce(_ nonce: NewSignInNonce) throws {
        try locked { state in state.signInNonces[nonce.id] = SignInNonceRow(nonce: nonce, usedAt: nil) }
    }

    public func spendSignInNonce(id: SignInNonceID, provider: String, now: Date) throws -> Data? {
        try locked { state in
            guard let row = state.signInNonces[id], row.usedAt == nil, row.nonce.provider == provider,
                  row.nonce.expiresAt > now
            else { return nil }
            state.signInNonces[id]?.usedAt = now
            return row.nonce.hash
        }
    }

    public func identity(provider: String, subject: String) throws -> IdentityRecord? {
        try locked { state in
            state.identities.values.first { $0.provider == provider && $0.subject == subject }
        }
    }

    public func identities(userID: UserID) throws -> [IdentityRecord] {
        try locked { state in
            state.identities.values.filter { $0.userID == userID }
                .sorted { ($0.createdAt, $0.id.description) < ($1.createdAt, $1.id.description) }
        }
    }

    /// The unique `(provider, subject)`, as the SQL `ON CONFLICT DO NOTHING` keeps it.
    public func addIdentity(_ identity: IdentityRecord, givenName: String?, familyName: String?) throws -> Bool {
        try locked { state in
            guard !state.identities.values.contains(where: {
                $0.provider == identity.provider && $0.subject == identity.subject
            }) else { return false }
            state.identities[identity.id] = identity
            return true
        }
    }

    public func recordIdentityUse(id: IdentityID, email: String?, emailVerified: Bool, isPrivateEmail: Bool,
                                  at: Date) throws {
        try locked { state in
            guard var identity = state.identities[id] else { return }
            identity.email = email ?? identity.email
            identity.emailVerified = emailVerified
            identity.isPrivateEmail = isPrivateEmail
            identity.lastUsedAt = at
            state.identities[id] = identity
        }
    }

    public func removeIdentity(id: IdentityID, userID: UserID, now: Date) throws -> Bool {
        try locked { state in
            guard state.identities[id]?.userID == userID else { return false }
            Self.markRevocations(identities: [id], now: now, in: &state)
            state.identities[id] = nil
            Self.detachJobs(from: [id], in: &state)
            return true
        }
    }

    public func createConfirmedUser(_ user: NewUser) throws -> UserRecord {
        try locked { state in
            try Self.insert(user, confirmedAt: user.createdAt, into: &state)
            return state.users[user.id]!
        }
    }

    public func confirmDroppingPassword(userID: UserID, at: Date) throws -> Bool {
        try locked { state in
            guard var user = state.users[userID], user.emailConfirmedAt == nil else { return false }
            user.emailConfirmedAt = at
            user.passwordHash = UserRecord.unsetPasswordHash
            user.passwordVersion += 1
            user.updatedAt = at
            state.users[userID] = user
            return true
        }
    }

    public func hasProviderToken(identityID: IdentityID) throws -> Bool {
        try locked { state in
            state.providerJobs.values.contains {
                $0.job.identityID == identityID && ["exchange", "held"].contains($0.state)
            }
        }
    }

    public func enqueueProviderJob(_ job: ProviderJob) throws {
        try locked { state in
            state.providerJobs[job.id] = ProviderJobRow(job: job, state: job.action.rawValue)
        }
    }

    public func scheduleProviderRevocations(userID: UserID, now: Date) throws -> Int {
        try locked { state in
            let ids = Set(state.identities.values.filter { $0.userID == userID }.map(\.id))
            return Self.markRevocations(identities: ids, now: now, in: &state)
        }
    }

    public func claimProviderJobs(now: Date, leaseUntil: Date, limit: Int) throws -> [ProviderJob] {
        try locked { state in
            let due = state.providerJobs.values
                .filter { ["exchange", "revoke"].contains($0.state) && $0.job.dueAt <= now }
                .sorted { ($0.job.dueAt, $0.job.id.description) < ($1.job.dueAt, $1.job.id.description) }
                .prefix(limit)
            return due.map { row in
                state.providerJobs[row.job.id]?.job.dueAt = leaseUntil
                var claimed = row.job
                claimed.action = ProviderJobAction(rawValue: row.state)!
                return claimed
            }
        }
    }

    public func finishProviderJob(id: ProviderJobID, outcome: ProviderJobOutcome, at: Date) throws {
        try locked { state in
            guard var row = state.providerJobs[id], ["exchange", "revoke"].contains(row.state) else { return }
            switch outcome {
            case .exchanged(let sealed):
                guard row.state == "exchange" else { return }
                row.state = row.revokeAfter ? "revoke" : "held"
                row.job.sealedToken = sealed
                row.job.attempts = 0
                row.job.dueAt = at
            case .revoked:
                guard row.state == "revoke" else { return }
                row.state = "done"
                row.job.sealedToken = Data()
            case .retry(let retryAt, let error):
                row.job.attempts += 1
                row.job.dueAt = retryAt
                row.lastError = error
            case .failed(let error):
                row.state = "failed"
                row.job.sealedToken = Data()
                row.job.attempts += 1
                row.lastError = error
            }
            state.providerJobs[id] = row
        }
    }

    /// The account's identities go with it; their jobs stay, detached, as `ON DELETE SET NULL` keeps them.
    static func forgetIdentities(of userID: UserID, in state: inout State) {
        let ids = Set(state.identities.values.filter { $0.userID == userID }.map(\.id))
        state.identities = state.identities.filter { !ids.contains($0.key) }
        detachJobs(from: ids, in: &state)
    }

    private static func detachJobs(from identities: Set<IdentityID>, in state: inout State) {
        for (id, row) in state.providerJobs where row.job.identityID.map(identities.contains) == true {
            state.providerJobs[id]?.job.identityID = nil
        }
    }

    @discardableResult
    private static func markRevocations(identities: Set<IdentityID>, now: Date, in state: inout State) -> Int {
        var marked = 0
        for (id, row) in state.providerJobs
        where row.job.identityID.map(identities.contains) == true && ["exchange", "held"].contains(row.state) {
            state.providerJobs[id]?.revokeAfter = true
            if row.state == "held" {
                state.providerJobs[id]?.state = "revoke"
                state.providerJobs[id]?.job.dueAt = now
                state.providerJobs[id]?.job.attempts = 0
            }
            marked += 1
        }
        return marked
    }
}
