import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// Failures caused by others never lock the owner out of a device they signed in on before (OWASP's device
/// cookies); untrusted clients keep the per-email limit and lockout.
@Suite struct TrustedDeviceTests {
    static let attackerIP = "198.51.100.66"

    func signIn(_ h: Harness, password: String = Harness.password, device: String? = nil, ip: String = Harness.ip)
        throws -> IssuedSession
    {
        try h.service.signIn(email: "alice@example.com", password: password, deviceToken: device, ip: ip, userAgent: nil)
            .session.unwrapped("a session")
    }

    /// Five wrong passwords from five addresses: the per-email lockout threshold.
    func lockOut(_ h: Harness) {
        for index in 0..<5 {
            _ = try? signIn(h, password: "wrong guess \(index)", ip: "198.51.100.\(index)")
        }
    }

    @Test func aSuccessfulSignInReturnsADeviceTokenThatIsKeptOnTheNextOne() throws {
        let h = Harness()
        try h.confirmedUser()
        let first = try signIn(h)
        let device = try #require(first.deviceToken)
        #expect(try signIn(h, device: device).deviceToken == device)
        #expect(try signIn(h).deviceToken != device, "a client without one gets a new one")
        #expect(h.store.snapshot.devices[h.generator.digest(device)] != nil, "stored by digest only")
        #expect(!h.store.snapshot.devices.keys.contains(Data(device.utf8)))
    }

    /// Security review finding 11 (NIST SP 800-63B §5.2.2): after 100 failures since the last success, password
    /// sign-in without a trusted device is refused until a reset, and the owner is mailed a reset link once, when
    /// the cap is reached.
    @Test func aHundredFailuresSinceTheLastSuccessStopUntrustedSignInAndMailAResetLink() throws {
        let h = Harness()
        try h.confirmedUser()
        let device = try #require(try signIn(h).deviceToken)
        let cap = h.service.configuration.lockout.maxFailuresSinceSuccess
        let resetsBefore = h.store.mails.filter { $0.kind == .resetPassword }.count
        var failures = 0
        while failures < cap {
            // Past each backoff and window, so every guess is counted (the lockout alone would only slow them).
            h.clock.advance(by: h.service.configuration.lockout.cap + 1)
            #expect(throws: AuthError.invalidCredentials) {
                try signIn(h, password: "wrong guess \(failures)", ip: "198.51.100.\(failures % 250)")
            }
            failures += 1
        }
        #expect(h.store.mails.filter { $0.kind == .resetPassword }.count == resetsBefore + 1)
        h.clock.advance(by: h.service.configuration.lockout.cap + 1)
        #expect {
            try signIn(h)
        } throws: { error in
            if case .rateLimited = error as? AuthError { true } else { false }
        }
        // The owner's trusted device still signs in; untrusted clients wait for the reset, which ends the cap.
        _ = try signIn(h, device: device)
        #expect(throws: (any Error).self) { try signIn(h) }
        let link = try #require(h.store.mails.last { $0.kind == .resetPassword }?.deepLink)
        let token = try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "token" }?.value)
        try h.service.resetPassword(token: token, newPassword: "a brand new passphrase", ip: nil)
        _ = try signIn(h, password: "a brand new passphrase")
    }

    @Test func othersCannotLockTheOwnerOutOfATrustedDevice() throws {
        let h = Harness()
        try h.confirmedUser()
        let device = try #require(try signIn(h).deviceToken)
        lockOut(h)

        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h) }
        _ = try signIn(h, device: device)
        // Repeating the attack once per backoff still never reaches the trusted device.
        for _ in 0..<3 {
            h.clock.advance(by: 16 * 60)
            lockOut(h)
            #expect(throws: AuthError.self) { try signIn(h) }
            _ = try signIn(h, device: device)
        }
    }

    @Test func thePerEmailSignInLimitFedFromElsewhereDoesNotRefuseATrustedDevice() throws {
        let h = Harness { $0.rateLimits.signInPerEmail = RateLimitRule(limit: 3, window: 900) }
        try h.confirmedUser()
        let device = try #require(try signIn(h).deviceToken)
        for index in 0..<3 { _ = try? signIn(h, password: "wrong guess \(index)", ip: "198.51.100.\(index)") }
        #expect(throws: AuthError.self) { try signIn(h) }
        _ = try signIn(h, device: device)
    }

    @Test func aDeviceTokenVouchesOnlyForItsOwnAccount() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.confirmedUser("mallory@example.com")
        let mallorysDevice = try #require(
            try h.service.signIn(email: "mallory@example.com", password: Harness.password, ip: nil, userAgent: nil)
                .session?.deviceToken)
        lockOut(h)
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h, device: mallorysDevice) }
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h, device: "made-up-device-token") }
    }

    @Test func aDeviceIsJudgedByItsOwnFailuresAndAnExpiredOneIsUntrusted() throws {
        let h = Harness()
        try h.confirmedUser()
        let device = try #require(try signIn(h).deviceToken)
        for index in 0..<5 {
            #expect(throws: AuthError.invalidCredentials) { try signIn(h, password: "typo \(index)", device: device) }
        }
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h, device: device) }
        h.clock.advance(by: 31)
        _ = try signIn(h, device: device)  // success clears the device's failures

        h.clock.advance(by: 366 * 24 * 3600)
        lockOut(h)
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h, device: device) }
    }

    @Test func aCompletedResetEndsTheLockout() throws {
        let h = Harness()
        try h.confirmedUser()
        lockOut(h)
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try signIn(h) }
        try h.forgotPassword("alice@example.com", ip: nil)
        try h.service.resetPassword(token: try #require(h.generator.lastToken), newPassword: "a brand new secret", ip: nil)
        _ = try signIn(h, password: "a brand new secret")
    }

    @Test func anOperatorUnlocksTheEmailAndTheUnlockIsAudited() throws {
        let h = Harness { $0.rateLimits.signInPerEmail = RateLimitRule(limit: 6, window: 900) }
        try h.confirmedUser()
        lockOut(h)
        _ = try? signIn(h, password: "sixth guess", ip: Self.attackerIP)  // the per-email limit is spent too
        #expect(throws: AuthError.self) { try signIn(h) }

        let operations = AdminOperations(service: h.service, actor: "opal")
        _ = try operations.unlock(email: "ALICE@example.com")
        _ = try signIn(h)
        let event = try #require(h.store.auditEvents.last { $0.name == .userUnlocked })
        #expect(event.detail["actor"] == "opal" && event.detail["email"] == "alice@example.com")
    }
}
