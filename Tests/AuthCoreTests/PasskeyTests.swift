import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The flows around the WebAuthn checks (which the fake verifier stands in for; WebAuthnTests and the integration
/// tests run the real ones): challenges spent once and only for their purpose and user, credentials mapped to their
/// owner by id and user handle, the counter rule, the session a passkey opens, and what removal keeps.
@Suite struct PasskeyTests {
    static let credentialID = Data(repeating: 0xC1, count: 16)

    static func registration(signCount: UInt32 = 0, backupEligible: Bool = true, id: Data = credentialID)
        -> VerifiedPasskeyRegistration
    {
        VerifiedPasskeyRegistration(
            credentialID: id, publicKey: Data([0xA5]), algorithm: .es256, signCount: signCount,
            backupEligible: backupEligible, backedUp: backupEligible, aaguid: Data(count: 16), attestationFormat: "none")
    }

    static func harness(registered: VerifiedPasskeyRegistration = registration(),
                        assertion: VerifiedPasskeyAssertion = .init(signCount: 0, backupEligible: true, backedUp: true),
                        configure: (inout AuthConfiguration) -> Void = { _ in }) -> Harness
    {
        Harness(passkeys: FakePasskeyVerifier(registration: .success(registered), assertion: .success(assertion)),
                configure: configure)
    }

    /// A session re-authenticated with the password, so privileged calls pass.
    static func presentSession(_ h: Harness, _ email: String = "alice@example.com") throws -> AuthenticatedUser {
        let issued = try h.confirmedUser(email)
        let proven = try h.service.reauthenticate(try h.service.authenticate(accessToken: issued.accessToken),
                                                  password: Harness.password, ip: nil)
        return try h.service.authenticate(accessToken: proven.accessToken)
    }

    static let registrationCredential = PasskeyRegistrationCredential(
        rawID: credentialID, clientDataJSON: Data("{}".utf8), attestationObject: Data([0xA0]),
        transports: ["internal", "hybrid", "carrier-pigeon", "internal"])

    /// Registers the verifier's passkey for `session`'s user; returns it and the user handle the options named.
    static func register(_ h: Harness, _ session: AuthenticatedUser) throws -> (PasskeyRecord, Data) {
        let options = try h.service.passkeyRegistrationOptions(session, ip: nil)
        let passkey = try h.service.registerPasskey(session, challengeID: options.challengeID,
                                                    credential: registrationCredential, name: " Phone\u{202E} ", ip: nil)
        return (passkey, options.userHandle)
    }

    static func assertion(handle: Data?, id: Data = credentialID) -> PasskeyAssertionCredential {
        PasskeyAssertionCredential(rawID: id, clientDataJSON: Data("{}".utf8), authenticatorData: Data(count: 37),
                                   signature: Data([1]), userHandle: handle)
    }

    static func signIn(_ h: Harness, handle: Data?, id: Data = credentialID) throws -> IssuedSession {
        let options = try h.service.passkeyAuthenticationOptions(for: nil, ip: Harness.ip)
        return try h.service.signInWithPasskey(challengeID: options.challengeID,
                                               credential: assertion(handle: handle, id: id), ip: Harness.ip,
                                               userAgent: Harness.agent)
    }

    static func audit(_ h: Harness, _ name: AuditEventName) -> [AuditEvent] {
        h.store.snapshot.audit.filter { $0.name == name }
    }

    @Test func registrationOptionsArePrivilegedAndNameARandomHandle() throws {
        let h = Self.harness()
        let issued = try h.confirmedUser()
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.passkeyRegistrationOptions(try h.service.authenticate(accessToken: issued.accessToken),
                                                     ip: nil)
        }
        let session = try Self.presentSession(h, "bob@example.com")
        let first = try h.service.passkeyRegistrationOptions(session, ip: nil)
        let second = try h.service.passkeyRegistrationOptions(session, ip: nil)
        #expect(first.userHandle.count == 32)
        #expect(first.userHandle == second.userHandle)
        #expect(first.challenge.count == 32 && first.challenge != second.challenge)
        #expect(first.rpID == "links.example.com")
        #expect(first.algorithms == [.es256, .edDSA, .rs256])
        #expect(first.timeout == 300_000)
    }

    @Test func registrationStoresCleanedNameAndKnownTransportsAndMailsTheOwner() throws {
        let h = Self.harness()
        let session = try Self.presentSession(h)
        let (passkey, _) = try Self.register(h, session)
        #expect(passkey.name == "Phone")
        #expect(passkey.transports == ["internal", "hybrid"])
        #expect(try h.service.passkeys(session).map(\.id) == [passkey.id])
        #expect(h.composer.requests.contains { $0.kind == .passkeyAdded })
        #expect(Self.audit(h, .passkeyAdded).count == 1)
        // The next options exclude it, so the platform does not register the same authenticator twice.
        #expect(try h.service.passkeyRegistrationOptions(session, ip: nil).excludeCredentials.map(\.id) == [passkey.id])
    }

    @Test func aChallengeIsSpentOnceAndOnlyForItsPurposeAndUser() throws {
        let h = Self.harness()
        let alice = try Self.presentSession(h)
        let bob = try Self.presentSession(h, "bob@example.com")
        let options = try h.service.passkeyRegistrationOptions(alice, ip: nil)
        // Another user's registration challenge.
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.registerPasskey(bob, challengeID: options.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        }
        _ = try h.service.registerPasskey(alice, challengeID: options.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        // Used.
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.registerPasskey(alice, challengeID: options.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        }
        // A sign-in challenge does not register, a registration challenge does not sign in.
        let signIn = try h.service.passkeyAuthenticationOptions(for: nil, ip: nil)
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.registerPasskey(alice, challengeID: signIn.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        }
        let registration = try h.service.passkeyRegistrationOptions(alice, ip: nil)
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.signInWithPasskey(challengeID: registration.challengeID,
                                            credential: Self.assertion(handle: nil), ip: nil, userAgent: nil)
        }
    }

    @Test func anExpiredChallengeIsRefused() throws {
        let h = Self.harness()
        let options = try h.service.passkeyAuthenticationOptions(for: nil, ip: nil)
        h.clock.advance(by: 5 * 60 + 1)
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.signInWithPasskey(challengeID: options.challengeID, credential: Self.assertion(handle: nil),
                                            ip: nil, userAgent: nil)
        }
    }

    @Test func aRefusedRegistrationIsAuditedWithItsReasonAndSpendsTheChallenge() throws {
        let h = Harness(passkeys: FakePasskeyVerifier(registration: .failure(PasskeyRejection(.origin))))
        let session = try Self.presentSession(h)
        let options = try h.service.passkeyRegistrationOptions(session, ip: nil)
        #expect(throws: AuthError.passkeyRejected) {
            try h.service.registerPasskey(session, challengeID: options.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        }
        #expect(Self.audit(h, .passkeyFailed).map { $0.detail["reason"] } == ["origin"])
        #expect(try h.service.passkeys(session).isEmpty)
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.registerPasskey(session, challengeID: options.challengeID,
                                          credential: Self.registrationCredential, name: nil, ip: nil)
        }
    }

    @Test func aCredentialIDBelongsToOneAccount() throws {
        let h = Self.harness()
        _ = try Self.register(h, try Self.presentSession(h))
        let bob = try Self.presentSession(h, "bob@example.com")
        #expect(throws: AuthError.passkeyRejected) { try Self.register(h, bob) }
        #expect(try h.service.passkeys(bob).isEmpty)
        #expect(Self.audit(h, .passkeyFailed).map { $0.detail["reason"] } == ["credential_id"])
    }

    @Test func signInOpensAnAAL2SessionThatSkipsTOTP() throws {
        let h = Self.harness(assertion: .init(signCount: 0, backupEligible: true, backedUp: true))
        let session = try Self.presentSession(h)
        let (_, handle) = try Self.register(h, session)
        let issued = try Self.signIn(h, handle: handle)
        let claims = try h.service.verifyAccessToken(issued.accessToken)
        #expect(claims.assurance == .aal2)
        #expect(claims.methods == [.softwareKey, .userVerification, .multipleFactors])
        #expect(issued.deviceToken != nil)
        #expect(Self.audit(h, .passkeySignInSucceeded).count == 1)
    }

    @Test func aDeviceBoundPasskeyIsAHardwareKey() throws {
        let h = Self.harness(registered: Self.registration(backupEligible: false),
                             assertion: .init(signCount: 0, backupEligible: false, backedUp: false))
        let (_, handle) = try Self.register(h, try Self.presentSession(h))
        let claims = try h.service.verifyAccessToken(try Self.signIn(h, handle: handle).accessToken)
        #expect(claims.methods == [.hardwareKey, .userVerification, .multipleFactors])
    }

    @Test func anUnknownCredentialOrAnotherUsersHandleSignsNoOneIn() throws {
        let h = Self.harness()
        let (_, aliceHandle) = try Self.register(h, try Self.presentSession(h))
        let bob = try Self.presentSession(h, "bob@example.com")
        let bobHandle = try h.service.passkeyRegistrationOptions(bob, ip: nil).userHandle
        let sessionsBefore = h.store.snapshot.sessions.count
        #expect(throws: AuthError.passkeyRejected) { try Self.signIn(h, handle: bobHandle) }
        #expect(throws: AuthError.passkeyRejected) { try Self.signIn(h, handle: nil) }
        #expect(throws: AuthError.passkeyRejected) {
            try Self.signIn(h, handle: aliceHandle, id: Data(repeating: 0xEE, count: 16))
        }
        #expect(h.store.snapshot.sessions.count == sessionsBefore)
        #expect(Self.audit(h, .passkeyFailed).allSatisfy { $0.detail["reason"] == "unknown_credential" })
        #expect(Self.audit(h, .passkeyFailed).count == 3)
    }

    @Test func aCounterThatDoesNotGrowIsRefusedAuditedAndMailed() throws {
        let h = Self.harness(registered: Self.registration(signCount: 10),
                             assertion: .init(signCount: 10, backupEligible: true, backedUp: true))
        let (_, handle) = try Self.register(h, try Self.presentSession(h))
        let sessionsBefore = h.store.snapshot.sessions.count
        #expect(throws: AuthError.passkeyRejected) { try Self.signIn(h, handle: handle) }
        #expect(h.store.snapshot.sessions.count == sessionsBefore)
        #expect(Self.audit(h, .passkeyCloneSuspected).count == 1)
        #expect(h.composer.requests.contains { $0.kind == .passkeyCloneSuspected })
    }

    @Test func aCounterThatGrowsIsRecorded() throws {
        let h = Self.harness(registered: Self.registration(signCount: 10),
                             assertion: .init(signCount: 11, backupEligible: true, backedUp: true))
        let session = try Self.presentSession(h)
        let (passkey, handle) = try Self.register(h, session)
        _ = try Self.signIn(h, handle: handle)
        let stored = try #require(try h.service.passkeys(session).first { $0.id == passkey.id })
        #expect(stored.signCount == 11)
        #expect(stored.lastUsedAt != nil)
        // The same counter again is a replay or a clone.
        #expect(throws: AuthError.passkeyRejected) { try Self.signIn(h, handle: handle) }
    }

    @Test func backupEligibilityCannotChangeAfterRegistration() throws {
        let h = Self.harness(registered: Self.registration(backupEligible: false),
                             assertion: .init(signCount: 0, backupEligible: true, backedUp: false))
        let (_, handle) = try Self.register(h, try Self.presentSession(h))
        #expect(throws: AuthError.passkeyRejected) { try Self.signIn(h, handle: handle) }
        #expect(Self.audit(h, .passkeyFailed).map { $0.detail["reason"] } == ["backup_state"])
    }

    @Test func reauthenticationCountsOnlyTheSessionsOwnPasskey() throws {
        let h = Self.harness()
        let alice = try Self.presentSession(h)
        _ = try Self.register(h, alice)
        let bobIssued = try h.confirmedUser("bob@example.com")
        let bob = try h.service.authenticate(accessToken: bobIssued.accessToken)
        let options = try h.service.passkeyAuthenticationOptions(for: bob, ip: nil)
        let aliceHandle = try h.service.passkeyRegistrationOptions(alice, ip: nil).userHandle
        #expect(throws: AuthError.passkeyRejected) {
            try h.service.reauthenticate(bob, passkeyChallenge: options.challengeID,
                                         credential: Self.assertion(handle: aliceHandle), ip: nil)
        }
        // Alice's own, with a challenge of her session: an aal2 proof.
        let own = try h.service.passkeyAuthenticationOptions(for: alice, ip: nil)
        let proven = try h.service.reauthenticate(alice, passkeyChallenge: own.challengeID,
                                                  credential: Self.assertion(handle: aliceHandle), ip: nil)
        let session = try h.service.authenticate(accessToken: proven.accessToken).session
        #expect(session.reauthenticatedWith == .softwareKey)
        // A sign-in challenge is not a re-authentication one.
        let signIn = try h.service.passkeyAuthenticationOptions(for: nil, ip: nil)
        #expect(throws: AuthError.invalidPasskeyChallenge) {
            try h.service.reauthenticate(alice, passkeyChallenge: signIn.challengeID,
                                         credential: Self.assertion(handle: aliceHandle), ip: nil)
        }
    }

    @Test func theLastWayToSignInStays() throws {
        let h = Self.harness { $0.emailSignIn = false }
        let session = try Self.presentSession(h)
        let (passkey, _) = try Self.register(h, session)
        // With a password, the passkey may go.
        try h.service.removePasskey(session, id: passkey.id, ip: nil)
        #expect(h.composer.requests.contains { $0.kind == .passkeyRemoved })
        #expect(throws: AuthError.passkeyNotFound) { try h.service.removePasskey(session, id: passkey.id, ip: nil) }
    }

    @Test func renamingAnotherUsersPasskeyFindsNothing() throws {
        let h = Self.harness()
        let (passkey, _) = try Self.register(h, try Self.presentSession(h))
        let bob = try Self.presentSession(h, "bob@example.com")
        #expect(throws: AuthError.passkeyNotFound) { try h.service.renamePasskey(bob, id: passkey.id, name: "x", ip: nil) }
        #expect(throws: AuthError.passkeyNotFound) { try h.service.removePasskey(bob, id: passkey.id, ip: nil) }
    }

    @Test func signCountRule() {
        #expect(PasskeySignCount.isAcceptable(stored: 0, received: 0))
        #expect(PasskeySignCount.isAcceptable(stored: 0, received: 1))
        #expect(PasskeySignCount.isAcceptable(stored: 5, received: 6))
        #expect(!PasskeySignCount.isAcceptable(stored: 5, received: 5))
        #expect(!PasskeySignCount.isAcceptable(stored: 5, received: 0))
        #expect(!PasskeySignCount.isAcceptable(stored: 5, received: 4))
    }

    @Test func androidOriginIsTheFingerprintInBase64URL() {
        let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        #expect(PasskeyConfiguration.androidOrigin(certificateFingerprint: fingerprint)
            == "android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU")
        #expect(PasskeyConfiguration.androidOrigin(certificateFingerprint: "AB:CD") == nil)
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URLText.decode("AQID") == Data([1, 2, 3]))
        #expect(Base64URLText.decode("AQI") == Data([1, 2]))
        #expect(Base64URLText.decode("AQI=") == nil)
        #expect(Base64URLText.decode("A+/B") == nil)
        #expect(Base64URLText.decode("AQJ") == nil) // non-zero trailing bits: not a canonical encoding
        #expect(Base64URLText.encode(Data([0xFB, 0xFF])) == "-_8")
    }
}
