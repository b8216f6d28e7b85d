import AuthCore
import Foundation
import Testing

/// `SecondFactorStore`: one pending factor per user, a step accepted once and only forwards, recovery codes spent
/// once, the last factor taking the codes with it, tickets live only while unused, in time, below the failure
/// limit and on the user's password version, and the user row saying whether a factor is active.
enum SecondFactorContract {
    static let cases: [ContractCase] = [
        ContractCase("SecondFactorStore: a newer enrolment replaces the pending one; activation is once, in time, "
                     + "below the attempt limit, and marks the user", enrolment),
        ContractCase("SecondFactorStore: a step is accepted once and only after the last accepted one", steps),
        ContractCase("SecondFactorStore: a recovery code is spent once; replacing the set ends the old codes",
                     recoveryCodes),
        ContractCase("SecondFactorStore: removing the last factor removes the codes; removing all ends tickets too",
                     removal),
        ContractCase("SecondFactorStore: a ticket is used once, and not after its time, its failures or a password "
                     + "change", tickets),
        ContractCase("SecondFactorStore: elevating a live session raises it and replaces its access token; a second-"
                     + "factor session opens with its methods", sessions),
    ]

    static func pending(_ f: ContractFixture, _ user: UserRecord, at seconds: TimeInterval, name: String = "Phone")
        throws -> TOTPFactorRecord
    {
        let factor = TOTPFactorRecord(id: FactorID(), userID: user.id, name: name,
                                      sealedSecret: Data((0..<48).map { _ in UInt8.random(in: .min ... .max) }),
                                      createdAt: f.at(seconds), expiresAt: f.at(seconds + 600))
        try f.store.storePendingFactor(factor, audit: AuditEvent(name: .secondFactorEnrolmentStarted,
                                                                 at: f.at(seconds), userID: user.id, ip: nil))
        return factor
    }

    /// A user with one active factor whose last accepted step is `step`.
    static func enrolled(_ f: ContractFixture, _ email: String, step: Int64 = 100) throws -> (UserRecord, FactorID) {
        let user = try f.confirmedUser(email)
        let factor = try pending(f, user, at: 1)
        #expect(try f.store.activateFactor(id: factor.id, userID: user.id, step: step, at: f.at(2), attemptLimit: 5))
        return (try f.reload(user), factor.id)
    }

    static func enrolment(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("enrol@example.com")
        let first = try pending(f, user, at: 1)
        let second = try pending(f, user, at: 2)
        #expect(try f.store.pendingFactor(id: first.id, userID: user.id, now: f.at(3), attemptLimit: 5) == nil)
        #expect(try f.store.pendingFactor(id: second.id, userID: user.id, now: f.at(3), attemptLimit: 5)?.sealedSecret
                == second.sealedSecret)
        let other = try f.confirmedUser("other-enrol@example.com")
        #expect(try f.store.pendingFactor(id: second.id, userID: other.id, now: f.at(3), attemptLimit: 5) == nil)
        #expect(try !f.store.activateFactor(id: second.id, userID: other.id, step: 5, at: f.at(3), attemptLimit: 5))
        #expect(try !f.store.countActivationAttempt(factorID: second.id, userID: other.id, now: f.at(3), attemptLimit: 2))
        #expect(try f.store.countActivationAttempt(factorID: second.id, userID: user.id, now: f.at(3), attemptLimit: 2))
        #expect(try f.store.countActivationAttempt(factorID: second.id, userID: user.id, now: f.at(3), attemptLimit: 2))
        #expect(try !f.store.countActivationAttempt(factorID: second.id, userID: user.id, now: f.at(3), attemptLimit: 2))
        #expect(try f.store.pendingFactor(id: second.id, userID: user.id, now: f.at(3), attemptLimit: 2) == nil)
        #expect(try !f.store.activateFactor(id: second.id, userID: user.id, step: 5, at: f.at(3), attemptLimit: 1),
                "two attempts counted, one allowed")
        #expect(try !f.store.activateFactor(id: second.id, userID: user.id, step: 5, at: f.at(603), attemptLimit: 5),
                "expired")
        #expect(try !f.reload(user).hasSecondFactor)
        #expect(try f.store.activateFactor(id: second.id, userID: user.id, step: 5, at: f.at(4), attemptLimit: 5))
        #expect(try !f.store.activateFactor(id: second.id, userID: user.id, step: 6, at: f.at(5), attemptLimit: 5),
                "once")
        #expect(try f.reload(user).hasSecondFactor)
        let status = try f.store.secondFactorStatus(userID: user.id)
        #expect(status.factors.map(\.id) == [second.id])
        #expect(status.factors.first?.lastUsedAt == f.at(4))
        #expect(try f.store.activeTOTPFactors(userID: user.id).first?.lastStep == 5)
    }

    static func steps(_ f: ContractFixture) throws {
        let (_, factor) = try enrolled(f, "steps@example.com", step: 100)
        #expect(try !f.store.acceptStep(factorID: factor, step: 100, at: f.at(10)), "the activation's step is used")
        #expect(try !f.store.acceptStep(factorID: factor, step: 99, at: f.at(10)))
        #expect(try f.store.acceptStep(factorID: factor, step: 102, at: f.at(10)))
        #expect(try !f.store.acceptStep(factorID: factor, step: 102, at: f.at(11)))
        #expect(try !f.store.acceptStep(factorID: factor, step: 101, at: f.at(11)))
        #expect(try f.store.acceptStep(factorID: factor, step: 103, at: f.at(12)))
    }

    static func recoveryCodes(_ f: ContractFixture) throws {
        let (user, _) = try enrolled(f, "codes@example.com")
        let digests = (0..<3).map { _ in f.digest() }
        try f.store.replaceRecoveryCodes(userID: user.id, digests: digests, at: f.at(3))
        #expect(try f.store.secondFactorStatus(userID: user.id).recoveryCodesRemaining == 3)
        #expect(try f.store.spendRecoveryCode(userID: user.id, digest: digests[1], at: f.at(4)))
        #expect(try !f.store.spendRecoveryCode(userID: user.id, digest: digests[1], at: f.at(5)))
        #expect(try !f.store.spendRecoveryCode(userID: user.id, digest: f.digest(), at: f.at(5)))
        let other = try f.confirmedUser("codes-other@example.com")
        #expect(try !f.store.spendRecoveryCode(userID: other.id, digest: digests[0], at: f.at(5)))
        #expect(try f.store.secondFactorStatus(userID: user.id).recoveryCodesRemaining == 2)
        let fresh = [f.digest()]
        try f.store.replaceRecoveryCodes(userID: user.id, digests: fresh, at: f.at(6))
        #expect(try !f.store.spendRecoveryCode(userID: user.id, digest: digests[0], at: f.at(7)))
        #expect(try f.store.secondFactorStatus(userID: user.id).recoveryCodesRemaining == 1)
    }

    static func removal(_ f: ContractFixture) throws {
        let (user, first) = try enrolled(f, "remove@example.com")
        let second = try pending(f, user, at: 3, name: "Tablet")
        #expect(try f.store.activateFactor(id: second.id, userID: user.id, step: 7, at: f.at(4), attemptLimit: 5))
        try f.store.replaceRecoveryCodes(userID: user.id, digests: [f.digest(), f.digest()], at: f.at(5))
        let other = try f.confirmedUser("remove-other@example.com")
        #expect(try f.store.removeFactor(id: first, userID: other.id) == nil)
        #expect(try f.store.removeFactor(id: first, userID: user.id) == 1)
        #expect(try f.store.secondFactorStatus(userID: user.id).recoveryCodesRemaining == 2)
        #expect(try f.store.removeFactor(id: first, userID: user.id) == nil)
        #expect(try f.store.removeFactor(id: second.id, userID: user.id) == 0)
        #expect(try f.store.secondFactorStatus(userID: user.id) == SecondFactorStatus(factors: [], recoveryCodesRemaining: 0))
        #expect(try !f.reload(user).hasSecondFactor)

        let (again, _) = try enrolled(f, "remove-all@example.com")
        _ = try pending(f, again, at: 3)
        try f.store.replaceRecoveryCodes(userID: again.id, digests: [f.digest()], at: f.at(4))
        let ticket = Self.ticket(f, again, at: 5)
        try f.store.issueTicket(ticket, rehash: nil, verifiedPasswordHash: nil, audit: Self.audit(f, again, at: 5))
        #expect(try f.store.removeAllFactors(userID: again.id) == 1)
        #expect(try f.store.secondFactorStatus(userID: again.id) == SecondFactorStatus(factors: [], recoveryCodesRemaining: 0))
        #expect(try f.store.liveTicket(hash: ticket.hash, now: f.at(6), failureLimit: 5) == nil)
    }

    static func ticket(_ f: ContractFixture, _ user: UserRecord, at seconds: TimeInterval,
                       device: Data? = nil) -> NewSecondFactorTicket
    {
        NewSecondFactorTicket(
            hash: f.digest(), userID: user.id, passwordVersion: user.passwordVersion, firstFactor: .password,
            emailKey: EmailAddress(stored: user.email).key, deviceTokenHash: device, ip: "203.0.113.7",
            userAgent: "Agent/1.0", createdAt: f.at(seconds), expiresAt: f.at(seconds + 300))
    }

    static func audit(_ f: ContractFixture, _ user: UserRecord, at seconds: TimeInterval) -> AuditEvent {
        AuditEvent(name: .secondFactorRequested, at: f.at(seconds), userID: user.id, ip: nil)
    }

    static func tickets(_ f: ContractFixture) throws {
        let (user, _) = try enrolled(f, "ticket@example.com")
        let device = f.digest()
        let issued = ticket(f, user, at: 10, device: device)
        try f.store.issueTicket(issued, rehash: "$argon2id$rehashed", verifiedPasswordHash: ContractFixture.passwordHash,
                                audit: audit(f, user, at: 10))
        #expect(try f.reload(user).passwordHash == "$argon2id$rehashed", "the rehash while the hash is the verified one")
        let live = try #require(try f.store.liveTicket(hash: issued.hash, now: f.at(11), failureLimit: 5))
        #expect(live.ticket == issued && live.failures == 0 && live.usedAt == nil)
        #expect(try f.store.liveTicket(hash: issued.hash, now: f.at(310), failureLimit: 5) == nil, "expired")
        #expect(try f.store.countTicketAttempt(hash: issued.hash, now: f.at(12), failureLimit: 2))
        #expect(try f.store.countTicketAttempt(hash: issued.hash, now: f.at(12), failureLimit: 2))
        #expect(try !f.store.countTicketAttempt(hash: issued.hash, now: f.at(12), failureLimit: 2), "at the limit")
        #expect(try f.store.liveTicket(hash: issued.hash, now: f.at(12), failureLimit: 2) == nil, "failures")
        #expect(try !f.store.useTicket(hash: issued.hash, now: f.at(12), failureLimit: 1), "two counted, one allowed")
        #expect(try f.store.useTicket(hash: issued.hash, now: f.at(12), failureLimit: 5))
        #expect(try !f.store.useTicket(hash: issued.hash, now: f.at(13), failureLimit: 5), "once")

        let stale = ticket(f, try f.reload(user), at: 20)
        try f.store.issueTicket(stale, rehash: nil, verifiedPasswordHash: nil, audit: audit(f, user, at: 20))
        let reset = try f.issued(.reset, for: try f.reload(user), at: 21)
        _ = try f.reset(.link(hash: reset.hash), by: try f.reload(user), at: 22)
        #expect(try f.store.liveTicket(hash: stale.hash, now: f.at(23), failureLimit: 5) == nil, "password changed")
        #expect(try !f.store.useTicket(hash: stale.hash, now: f.at(23), failureLimit: 5))
    }

    static func sessions(_ f: ContractFixture) throws {
        let (user, _) = try enrolled(f, "elevate@example.com")
        let signedIn = try f.signIn(user, at: 10)
        let hash = f.digest()
        let elevated = try #require(try f.store.elevateSession(
            id: signedIn.id, assurance: .aal2, methods: [.password, .otp, .multipleFactors], proof: .otp, now: f.at(20),
            accessTokenHash: hash, accessExpiresAt: f.at(920), maxSessionAge: 90 * 86400))
        #expect(elevated.assurance == .aal2 && elevated.methods == [.password, .otp, .multipleFactors])
        #expect(elevated.reauthenticatedAt == f.at(20) && elevated.reauthenticatedWith == .otp)
        #expect(try f.store.findSession(accessTokenHash: hash)?.session == elevated)
        try f.store.revokeSession(id: signedIn.id, at: f.at(21))
        #expect(try f.store.elevateSession(
            id: signedIn.id, assurance: .aal2, methods: [.password], proof: .otp, now: f.at(22),
            accessTokenHash: f.digest(), accessExpiresAt: f.at(920), maxSessionAge: 90 * 86400) == nil)

        let id = SessionID()
        let credentials = f.credentials(at: 30)
        try f.store.openSecondFactorSession(
            NewSession(id: id, userID: user.id, createdAt: f.at(30), credentials: credentials,
                       passwordVersion: user.passwordVersion),
            assurance: .aal2, methods: [.email, .recoveryCode, .multipleFactors],
            device: DeviceTrust(tokenHash: f.digest(), expiresAt: f.at(86400)))
        let opened = try #require(try f.found(credentials))
        #expect(opened.id == id && opened.assurance == .aal2 && opened.methods == [.email, .recoveryCode, .multipleFactors])
    }
}
