import Foundation
import LatchTestSupport
import Testing

/// Registering a passkey and signing in with it, end to end: latchd's options, an authenticator that shares no code
/// with latchd (`SoftwareAuthenticator`: cbor2 and cryptography), and py_webauthn, which must accept every
/// registration latchd accepts (`TestApp.registerPasskey` asks it each time).
@Suite struct PasskeyCeremonyTests {
    /// The registration options are what the contract promises: RP, a 32-byte user handle that stays the user's, a
    /// 32-byte challenge, the three algorithms in order, discoverable credential and user verification required,
    /// attestation none; and a second call lists the passkey already registered in `excludeCredentials`.
    @Test func registrationOptionsAskForADiscoverableUserVerifiedCredential() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("options@example.test")
        let options = try app.registrationOptions(bearer: user.bearer)
        let publicKey = options.object
        let rp = publicKey["rp"] as? [String: Any]
        #expect(rp?["id"] as? String == TestApp.passkeyRPID && rp?["name"] as? String == "Latch", "\(options)")
        let person = publicKey["user"] as? [String: Any]
        #expect(person?["name"] as? String == user.email && person?["displayName"] as? String == user.email,
                "\(options)")
        #expect(options.userID.flatMap(PasskeyTesting.decodeBase64url)?.count == 32, "user.id: \(options)")
        #expect(PasskeyTesting.decodeBase64url(options.challenge)?.count == 32, "challenge: \(options)")
        #expect(!options.challenge.contains("="), "base64url without padding: \(options)")
        let algorithms = (publicKey["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int }
        #expect(algorithms == PasskeyTesting.algorithms, "\(options)")
        let selection = publicKey["authenticatorSelection"] as? [String: Any]
        #expect(selection?["residentKey"] as? String == "required"
                && selection?["requireResidentKey"] as? Bool == true
                && selection?["userVerification"] as? String == "required", "\(options)")
        #expect(publicKey["attestation"] as? String == "none" && publicKey["timeout"] as? Int == 300_000, "\(options)")
        #expect((publicKey["excludeCredentials"] as? [Any])?.isEmpty == true, "\(options)")

        let passkey = try app.registerPasskey(bearer: user.bearer)
        let again = try app.registrationOptions(bearer: user.bearer)
        #expect(again.userID == options.userID, "the user handle stays the user's: \(again)")
        #expect(again.challenge != options.challenge)
        let excluded = (again.object["excludeCredentials"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(excluded == [passkey.stored.credentialID], "\(again)")
    }

    /// For each algorithm latchd offers: a 201 with the passkey object, the listing, a sign-in (200 with the usual
    /// session, the access token working), `last_used_at` set, and the audit rows and mail the contract names.
    @Test(arguments: PasskeyTesting.algorithms)
    func registerAndSignIn(algorithm: Int) throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("alg\(-algorithm)@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, algorithm: algorithm, name: "Laptop")
        #expect(passkey.record.algorithm == algorithm && passkey.record.name == "Laptop", "\(passkey.record)")
        #expect(passkey.record.last_used_at == nil && !passkey.record.backup_eligible && !passkey.record.backed_up,
                "\(passkey.record)")
        #expect(passkey.record.transports == ["internal", "hybrid"] || passkey.record.transports == ["hybrid", "internal"],
                "\(passkey.record)")
        #expect(passkey.record.aaguid.lowercased() == "00000000-0000-0000-0000-000000000000", "\(passkey.record)")
        #expect(try app.passkeys(bearer: user.bearer).map(\.id) == [passkey.record.id])
        #expect(try app.auditCount("passkey_added", userID: user.userID) == 1)
        #expect(try app.mailCount(to: user.email, kind: "passkey_added") == 1)

        let session = try app.signInWithPasskey(passkey.stored, signCount: 1)
        #expect(session.user.id == user.userID && session.user.email == user.email, "\(session.user)")
        #expect(session.device_token != nil, "a sign-in answers a device token like POST /v1/signin")
        let me = try app.me(session.access_token)
        #expect(me.status == 200, "\(me.text)")
        #expect(try app.auditCount("passkey_signin_succeeded", userID: user.userID) == 1)
        let listed = try app.passkeys(bearer: session.access_token)
        #expect(listed.count == 1 && listed.first?.last_used_at != nil, "\(listed)")
        let metrics = try app.metrics().text
        #expect(metrics.contains("latch_passkey_signins_total"), "\(metrics.prefix(400))")
    }

    /// Without a name, a passkey is "Passkey"; a name is changed with PATCH (audited), and another user's passkey
    /// is not found.
    @Test func namingAPasskey() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let alice = try app.passkeyUser("alice@example.test")
        let bob = try app.passkeyUser("bob@example.test")
        let passkey = try app.registerPasskey(bearer: alice.bearer)
        #expect(passkey.record.name == "Passkey")
        let renamed = try app.renamePasskey(bearer: alice.bearer, id: passkey.record.id, name: "Phone")
        #expect(renamed.status == 200 && (try? renamed.json(PasskeyJSON.self))?.name == "Phone", "\(renamed.text)")
        #expect(try app.auditCount("passkey_renamed", userID: alice.userID) == 1)
        PasskeyTesting.expect(try app.renamePasskey(bearer: bob.bearer, id: passkey.record.id, name: "Mine"),
                              404, "passkey_not_found", "renaming another user's passkey")
        PasskeyTesting.expect(try app.deletePasskey(bearer: bob.bearer, id: passkey.record.id),
                              404, "passkey_not_found", "deleting another user's passkey")
        #expect(try app.passkeys(bearer: alice.bearer).map(\.name) == ["Phone"])
    }

    /// A synced passkey (BE and BS set) is listed as backup-eligible and backed up.
    @Test func aSyncedPasskeyIsListedAsBackedUp() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("synced@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, algorithm: -8, flags: .synced)
        #expect(passkey.record.backup_eligible && passkey.record.backed_up, "\(passkey.record)")
        _ = try app.signInWithPasskey(passkey.stored, signCount: 1)
    }

    /// Authenticators without a counter (synced passkeys send 0 every time, WebAuthn L3 §6.1.1) sign in again and
    /// again: a counter that stays 0 is no clone.
    @Test func aPasskeyWithoutACounterSignsInRepeatedly() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("zero@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, flags: .synced, signCount: 0)
        for attempt in 1...3 {
            let response = try app.passkeySignIn(passkey.stored, signCount: 0)
            #expect(response.status == 200, "sign-in \(attempt) with counter 0: \(response.text)")
        }
        #expect(try app.auditCount("passkey_clone_suspected") == 0)
    }

    /// An Android app's origin (`android:apk-key-hash:` + base64url of its signing certificate's SHA-256) is
    /// allowed when the app is configured, for registration and sign-in; another certificate's is not.
    @Test func anAndroidAppSignsIn() throws {
        let fingerprint = Data((0..<32).map { UInt8(($0 * 7) & 0xFF) })
        let hex = fingerprint.map { String(format: "%02X", $0) }.joined(separator: ":")
        let app = try TestApp.passkeyApp([
            "LATCH_ANDROID_PACKAGE": "com.example.app", "LATCH_ANDROID_CERT_FINGERPRINTS": hex,
        ])
        defer { app.stop() }
        let origin = "android:apk-key-hash:\(PasskeyTesting.base64url(fingerprint))"
        let user = try app.passkeyUser("android@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, origin: origin)
        let session = try app.signInWithPasskey(passkey.stored, signCount: 1, origin: origin)
        #expect(session.user.id == user.userID)

        let before = try app.passkeyFootprint()
        let otherOrigin = "android:apk-key-hash:\(PasskeyTesting.base64url(Data(repeating: 0xAB, count: 32)))"
        let options = try app.registrationOptions(bearer: user.bearer)
        let foreign = try SoftwareAuthenticator.create(options, origin: otherOrigin)
        PasskeyTesting.expect(try app.verifyPasskeyRegistration(bearer: user.bearer, challengeID: options.challengeID,
                                                                credential: foreign.credential),
                              400, "passkey_rejected", "registration from another certificate's app")
        PasskeyTesting.expect(try app.passkeySignIn(passkey.stored, signCount: 2, origin: otherOrigin), 400, "passkey_rejected",
                              "sign-in from another certificate's app")
        #expect(try app.passkeyFootprint() == before)
    }
}
