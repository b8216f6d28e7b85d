import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func secondFactorStatus(userID: UserID) throws -> SecondFactorStatus {
        try locked { state in
            SecondFactorStatus(
                factors: Self.active(of: userID, in: state).map(\.publicFactor),
                recoveryCodesRemaining: (state.recoveryCodes[userID] ?? [:]).values.filter { $0 == nil }.count)
        }
    }

    public func activeTOTPFactors(userID: UserID) throws -> [TOTPFactorRecord] {
        try locked { state in Self.active(of: userID, in: state) }
    }

    public func storePendingFactor(_ factor: TOTPFactorRecord, audit: AuditEvent) throws {
        try locked { state in
            for (id, row) in state.factors where row.userID == factor.userID && !row.isActive { state.factors[id] = nil }
            state.factors[factor.id] = factor
            var audit = audit
            audit.userID = factor.userID
            state.audit.append(audit)
        }
    }

    public func pendingFactor(id: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> TOTPFactorRecord? {
        try locked { state in Self.pending(id, of: userID, now: now, limit: attemptLimit, in: state) }
    }

    public func countActivationAttempt(factorID: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> Bool {
        try locked { state in
            guard Self.pending(factorID, of: userID, now: now, limit: attemptLimit, in: state) != nil else { return false }
            state.factors[factorID]?.attempts += 1
            return true
        }
    }

    public func activateFactor(id: FactorID, userID: UserID, step: Int64, at: Date, attemptLimit: Int) throws -> Bool {
        try locked { state in
            guard Self.pending(id, of: userID, now: at, limit: attemptLimit + 1, in: state) != nil else { return false }
            state.factors[id]?.activatedAt = at
            state.factors[id]?.expiresAt = nil
            state.factors[id]?.lastStep = step
            state.factors[id]?.lastUsedAt = at
            state.users[userID]?.hasSecondFactor = true
            return true
        }
    }

    public func acceptStep(factorID: FactorID, step: Int64, at: Date) throws -> Bool {
        try locked { state in
            guard let factor = state.factors[factorID], factor.isActive, factor.lastStep < step else { return false }
            state.factors[factorID]?.lastStep = step
            state.factors[factorID]?.lastUsedAt = at
            return true
        }
    }

    public func replaceRecoveryCodes(userID: UserID, digests: [Data], at: Date) throws {
        try locked { state in
            state.recoveryCodes[userID] = Dictionary(uniqueKeysWithValues: digests.map { ($0, Date?.none) })
        }
    }

    public func spendRecoveryCode(userID: UserID, digest: Data, at: Date) throws -> Bool {
        try locked { state in
            guard let entry = state.recoveryCodes[userID]?[digest], entry == nil else { return false }
            state.recoveryCodes[userID]?[digest] = .some(at)
            return true
        }
    }

    public func removeFactor(id: FactorID, userID: UserID) throws -> Int? {
        try locked { state in
            guard let factor = state.factors[id], factor.userID == userID, factor.isActive else { return nil }
            state.factors[id] = nil
            let left = Self.active(of: userID, in: state).count
            if left == 0 {
                state.recoveryCodes[userID] = nil
                state.users[userID]?.hasSecondFactor = false
            }
            return left
        }
    }

    public func removeAllFactors(userID: UserID) throws -> Int {
        try locked { state in
            let active = Self.active(of: userID, in: state).count
            for (id, row) in state.factors where row.userID == userID { state.factors[id] = nil }
            state.recoveryCodes[userID] = nil
            for (hash, row) in state.tickets where row.ticket.userID == userID { state.tickets[hash] = nil }
            state.users[userID]?.hasSecondFactor = false
            return active
        }
    }

    public func elevateSession(
        id: SessionID, assurance: AssuranceLevel, methods: [AuthenticationMethod], proof: AuthenticationMethod,
        now: Date, accessTokenHash: Data, accessExpiresAt: Date, maxSessionAge: TimeInterval
    ) throws -> Session? {
        try locked { state in
            guard let row = state.sessions[id], let user = state.users[row.session.userID], !user.isDisabled,
                  Self.liveSession(id, of: user.id, in: state) != nil
            else { return nil }
            var session = row.session
            session.assurance = assurance
            session.methods = methods
            session.reauthenticatedAt = now
            session.reauthenticatedWith = proof
            session.accessExpiresAt = min(accessExpiresAt, session.createdAt.addingTimeInterval(maxSessionAge))
            state.sessions[id] = SessionRow(session: session, accessTokenHash: accessTokenHash, lastUsedAt: now)
            return session
        }
    }

    public func issueTicket(
        _ ticket: NewSecondFactorTicket, rehash: String?, verifiedPasswordHash: String?, audit: AuditEvent
    ) throws {
        try locked { state in
            state.tickets[ticket.hash] = SecondFactorTicket(ticket: ticket, failures: 0, usedAt: nil)
            if let rehash, state.users[ticket.userID]?.passwordHash == verifiedPasswordHash {
                state.users[ticket.userID]?.passwordHash = rehash
            }
            var audit = audit
            audit.userID = ticket.userID
            state.audit.append(audit)
        }
    }

    public func liveTicket(hash: Data, now: Date, failureLimit: Int) throws -> SecondFactorTicket? {
        try locked { state in Self.liveTicket(hash, now: now, limit: failureLimit, disabledToo: true, in: state) }
    }

    public func countTicketAttempt(hash: Data, now: Date, failureLimit: Int) throws -> Bool {
        try locked { state in
            guard Self.liveTicket(hash, now: now, limit: failureLimit, in: state) != nil else { return false }
            state.tickets[hash]?.failures += 1
            return true
        }
    }

    public func useTicket(hash: Data, now: Date, failureLimit: Int) throws -> Bool {
        try locked { state in
            guard Self.liveTicket(hash, now: now, limit: failureLimit + 1, in: state) != nil else { return false }
            state.tickets[hash]?.usedAt = now
            return true
        }
    }

    public func openSecondFactorSession(
        _ session: NewSession, assurance: AssuranceLevel, methods: [AuthenticationMethod], device: DeviceTrust
    ) throws {
        try locked { state in
            Self.insert(session, assurance: assurance, methods: methods, into: &state)
            if state.devices[device.tokenHash] == nil {
                state.devices[device.tokenHash] = DeviceRow(userID: session.userID, expiresAt: device.expiresAt,
                                                            lastUsedAt: session.createdAt)
            }
        }
    }

    static func active(of userID: UserID, in state: State) -> [TOTPFactorRecord] {
        state.factors.values.filter { $0.userID == userID && $0.isActive }
            .sorted { ($0.createdAt, $0.id.description) < ($1.createdAt, $1.id.description) }
    }

    static func pending(_ id: FactorID, of userID: UserID, now: Date, limit: Int, in state: State) -> TOTPFactorRecord? {
        guard let factor = state.factors[id], factor.userID == userID, !factor.isActive,
              let expiry = factor.expiresAt, expiry > now, factor.attempts < limit
        else { return nil }
        return factor
    }

    static func liveTicket(_ hash: Data, now: Date, limit: Int, disabledToo: Bool = false, in state: State)
        -> SecondFactorTicket?
    {
        guard let stored = state.tickets[hash], stored.usedAt == nil, stored.ticket.expiresAt > now,
              stored.failures < limit, let user = state.users[stored.ticket.userID], disabledToo || !user.isDisabled,
              user.passwordVersion == stored.ticket.passwordVersion
        else { return nil }
        return stored
    }
}
