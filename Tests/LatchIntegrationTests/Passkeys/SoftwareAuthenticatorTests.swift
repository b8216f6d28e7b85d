import Foundation
import Testing

/// The test harness itself, without latchd: `SoftwareAuthenticator` carries options to `authenticator.py` and its
/// answers back intact, and py_webauthn accepts its unbroken registrations and refuses a broken one. (The full
/// standalone check, assertions included, is `Tests/webauthn/self_check.py`.)
@Suite struct SoftwareAuthenticatorTests {
    /// Options shaped like latchd's, for a made-up user.
    static func options() throws -> PasskeyOptions {
        let random = { PasskeyTesting.base64url(Data((0..<32).map { _ in UInt8.random(in: 0...255) })) }
        let body = try SoftwareAuthenticator.text([
            "challenge_id": UUID().uuidString.lowercased(),
            "publicKey": [
                "rp": ["id": TestApp.passkeyRPID, "name": "Latch"],
                "user": ["id": random(), "name": "a@example.test", "displayName": "a@example.test"],
                "challenge": random(),
                "pubKeyCredParams": PasskeyTesting.algorithms.map { ["type": "public-key", "alg": $0] },
            ] as [String: Any],
        ])
        return try #require(PasskeyOptions(json: Array(body.utf8)))
    }

    @Test(arguments: PasskeyTesting.algorithms)
    func theReferenceVerifierAcceptsAnUnbrokenRegistration(algorithm: Int) throws {
        let options = try Self.options()
        let registration = try SoftwareAuthenticator.create(options, algorithm: algorithm, flags: .synced)
        #expect(registration.stored.algorithm == algorithm && registration.stored.backupEligible)
        #expect(registration.stored.userHandle == options.userID)
        let verdict = try SoftwareAuthenticator.referenceVerdict(registration)
        #expect(verdict.verified && verdict.credentialID == registration.stored.credentialID, "\(verdict)")

        let assertion = try SoftwareAuthenticator.get(
            try options.dressedAsSignIn(rpID: TestApp.passkeyRPID), with: registration.stored, signCount: 1)
        let response = try #require(
            (try JSONSerialization.jsonObject(with: Data(assertion.utf8)) as? [String: Any])?["response"]
                as? [String: Any])
        #expect(response["userHandle"] as? String == options.userID, "\(assertion)")
        let withoutHandle = try SoftwareAuthenticator.get(
            try options.dressedAsSignIn(rpID: TestApp.passkeyRPID), with: registration.stored, userHandle: .some(nil))
        #expect(!withoutHandle.contains("userHandle"), "\(withoutHandle)")
    }

    @Test func theReferenceVerifierRefusesABrokenRegistration() throws {
        let options = try Self.options()
        let registration = try SoftwareAuthenticator.create(options, mutations: [.wrongChallenge])
        let verdict = try SoftwareAuthenticator.referenceVerdict(registration)
        #expect(!verdict.verified, "\(verdict)")
    }
}
