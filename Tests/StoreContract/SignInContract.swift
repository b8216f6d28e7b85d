import AuthCore
import Foundation
import Testing

/// `SessionStore.prepareSignIn` and `completeSignIn`: a password sign-in's two statements.
enum SignInContract {
    static let cases: [ContractCase] = [
        ContractCase("SessionStore.prepareSignIn: counts both hits, returns the failures and the user", prepare),
        ContractCase("SessionStore.prepareSignIn: a trusted device is kept only unexpired and of the same account",
                     prepareDevice),
        ContractCase("SessionStore.prepareSignIn: the own hit is not counted past the address limit", prepareLimit),
        ContractCase("SessionStore.completeSignIn: session, refresh token, device, rehash, forgiven failures",
                     complete),
        ContractCase("SessionStore.completeSignIn: a known device moves its expiry and clears its failures",
                     completeKnownDevice),
        ContractCase("SessionStore.completeSignIn: false and nothing written when the hash changed", completeStale),
    ]

    static let emailHitKey = "signin:email:ann@example.com"
    static let deviceHitKey = "signin:device:abc"

    /// An attempt on ann@example.com at 100 s from 203.0.113.7, windows starting at 60 s.
    static func attempt(_ f: ContractFixture, device: Data? = nil, address: Bool = true, limit: Int = 30,
                        deviceKey: String? = deviceHitKey) -> SignInAttempt
    {
        SignInAttempt(
            emailKey: "ann@example.com", deviceTokenHash: device, now: f.at(100),
            addressHit: address ? RateLimitHit(key: "signin:ip:203.0.113.7", windowStart: f.at(60)) : nil,
            addressLimit: limit, ownHit: RateLimitHit(key: emailHitKey, windowStart: f.at(60)), deviceKey: deviceKey)
    }

    static func prepare(_ f: ContractFixture) throws {
        #expect(try f.store.prepareSignIn(attempt(f)) == SignInPreparation(
            addressHits: 1, ownHits: 1, device: nil, failures: nil, user: nil), "an unknown address is counted too")
        let ann = try f.user("Ann@Example.com").user
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(50), forgetBefore: f.at(0))
        #expect(try f.store.prepareSignIn(attempt(f)) == SignInPreparation(
            addressHits: 2, ownHits: 2, device: nil,
            failures: SignInFailures(count: 1, lastFailureAt: f.at(50)), user: ann))
        #expect(try f.store.prepareSignIn(attempt(f, address: false)) == SignInPreparation(
            addressHits: nil, ownHits: 3, device: nil,
            failures: SignInFailures(count: 1, lastFailureAt: f.at(50)), user: ann), "no address, no address hit")
        #expect(try f.hitsAfterOneMore("signin:ip:203.0.113.7", window: 60) == 3)
        #expect(try f.hitsAfterOneMore(emailHitKey, window: 60) == 4)
        #expect(try f.hitsAfterOneMore(deviceHitKey, window: 60) == 1, "no device, nothing under its key")
    }

    static func prepareDevice(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        let annsDevice = try f.signIn(ann, at: 10, deviceTTL: 200).device
        _ = try f.store.recordDeviceFailure(tokenHash: annsDevice, at: f.at(20), forgetBefore: f.at(0))
        let bobsDevice = try f.signIn(bob, at: 10, deviceTTL: 200).device
        let expiring = try f.signIn(ann, at: 10, deviceTTL: 90).device

        let kept = try f.store.prepareSignIn(attempt(f, device: annsDevice))
        #expect(kept == SignInPreparation(
            addressHits: 1, ownHits: 1,
            device: TrustedDevice(userID: ann.id, emailKey: "ann@example.com", expiresAt: f.at(210),
                                  failures: SignInFailures(count: 1, lastFailureAt: f.at(20))),
            failures: nil, user: ann))
        #expect(try f.hitsAfterOneMore(deviceHitKey, window: 60) == 2, "counted under the device's key")
        #expect(try f.hitsAfterOneMore(emailHitKey, window: 60) == 1, "not under the email's")

        for (label, device) in [("another account's device", bobsDevice), ("a device expiring now", expiring),
                                ("an unknown device", f.digest())] {
            let dropped = try f.store.prepareSignIn(attempt(f, device: device))
            #expect(dropped.device == nil, "\(label)")
            #expect(dropped.user == ann)
        }
        #expect(try f.hitsAfterOneMore(emailHitKey, window: 60) == 5, "dropped devices count under the email")
        #expect(try f.hitsAfterOneMore(deviceHitKey, window: 60) == 3)

        // A kept device without a key of its own counts under the email's.
        let keyless = try f.store.prepareSignIn(attempt(f, device: annsDevice, deviceKey: nil))
        #expect(keyless.device?.userID == ann.id && keyless.ownHits == 6)
    }

    static func prepareLimit(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let device = try f.signIn(ann, at: 10).device
        #expect(try f.store.prepareSignIn(attempt(f, limit: 2)).ownHits == 1)
        #expect(try f.store.prepareSignIn(attempt(f, limit: 2)).ownHits == 2, "at the limit it counts")
        let past = try f.store.prepareSignIn(attempt(f, device: device, limit: 2))
        #expect(past.addressHits == 3 && past.ownHits == nil)
        #expect(past.device?.userID == ann.id && past.user == ann, "the rest is still read")
        #expect(try f.hitsAfterOneMore(emailHitKey, window: 60) == 3)
        #expect(try f.hitsAfterOneMore(deviceHitKey, window: 60) == 1)
    }

    static func complete(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(5), forgetBefore: f.at(0))
        _ = try f.store.recordSignInFailure(emailKey: "other@example.com", at: f.at(5), forgetBefore: f.at(0))
        let credentials = f.credentials(at: 100)
        let sessionID = SessionID()
        let device = f.digest()
        #expect(try f.store.completeSignIn(SignInCompletion(
            session: NewSession(id: sessionID, userID: ann.id, createdAt: f.at(100), credentials: credentials,
                                passwordVersion: 1),
            verifiedPasswordHash: ann.passwordHash, rehash: "$argon2id$rehashed",
            device: DeviceTrust(tokenHash: device, expiresAt: f.at(1000)), forgiveFailuresOf: "ann@example.com",
            audit: AuditEvent(name: .signInSucceeded, at: f.at(100), userID: ann.id, ip: nil))))

        var rehashed = ann
        rehashed.passwordHash = "$argon2id$rehashed"
        rehashed.updatedAt = f.at(100)
        #expect(try f.reload(ann) == rehashed, "same password, same version")
        let session = f.session(sessionID, of: ann, at: 100, credentials)
        #expect(try f.store.findSession(accessTokenHash: credentials.accessTokenHash)
            == SessionLookup(session: session, user: rehashed))
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(101))
            == [SessionActivity(session: session, lastUsedAt: f.at(100))])
        #expect(try f.store.findTrustedDevice(tokenHash: device)
            == TrustedDevice(userID: ann.id, emailKey: "ann@example.com", expiresAt: f.at(1000), failures: nil))
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") == nil)
        #expect(try f.store.signInFailures(emailKey: "other@example.com") != nil)
        guard case .rotated = try f.rotate(credentials.refreshTokenHash, at: 110).0 else {
            Issue.record("the session's first refresh token was not inserted")
            return
        }
    }

    static func completeKnownDevice(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(5), forgetBefore: f.at(0))
        let device = try f.signIn(ann, at: 10, deviceTTL: 100).device
        _ = try f.store.recordDeviceFailure(tokenHash: device, at: f.at(20), forgetBefore: f.at(0))
        try f.signIn(ann, at: 30, device: device, deviceTTL: 500)
        #expect(try f.store.findTrustedDevice(tokenHash: device)
            == TrustedDevice(userID: ann.id, emailKey: "ann@example.com", expiresAt: f.at(530), failures: nil))
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") != nil, "forgiveFailuresOf was nil")
        #expect(try f.reload(ann) == ann, "no rehash, no change")
    }

    static func completeStale(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(5), forgetBefore: f.at(0))
        let credentials = f.credentials(at: 100)
        let device = f.digest()
        #expect(try f.store.completeSignIn(SignInCompletion(
            session: NewSession(id: SessionID(), userID: ann.id, createdAt: f.at(100), credentials: credentials,
                                passwordVersion: 1),
            verifiedPasswordHash: "$argon2id$the-old-one", rehash: "$argon2id$rehashed",
            device: DeviceTrust(tokenHash: device, expiresAt: f.at(1000)), forgiveFailuresOf: "ann@example.com",
            audit: AuditEvent(name: .signInSucceeded, at: f.at(100), userID: ann.id, ip: nil))) == false)
        #expect(try f.reload(ann) == ann)
        #expect(try f.store.findSession(accessTokenHash: credentials.accessTokenHash) == nil)
        #expect(try f.rotate(credentials.refreshTokenHash, at: 110).0 == .unknown)
        #expect(try f.store.findTrustedDevice(tokenHash: device) == nil)
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") != nil)
    }
}
