import AuthCore
import Foundation
import LatchCrypto
import Testing
@testable import WebAuthn

/// WebAuthnVerifier.verifyAssertion (§7.2): a signature from each kind of key is accepted with its counter and
/// backup flags; each fault is refused with its own reason, one fault per test.
@Suite struct AssertionTests {
    @Test func aSignatureFromEachKindOfKeyIsAccepted() throws {
        for key in [try TestKey.p256(), try TestKey.ed25519(), try TestKey.rsa()] {
            var fixture = AssertionFixture(key: key)
            fixture.flags.formUnion([.backupEligible, .backedUp])
            fixture.signCount = 0x0102_0304
            let verified = try fixture.verify()
            #expect(verified == VerifiedPasskeyAssertion(signCount: 0x0102_0304, backupEligible: true, backedUp: true),
                    "\(key.algorithm)")
        }
    }

    /// Bytes handed over as a slice of a larger buffer (indices not starting at zero) read the same.
    @Test func authenticatorDataInASliceIsReadFromItsStart() throws {
        let key = try TestKey.p256()
        let fixture = AssertionFixture(key: key)
        var credential = try fixture.credential
        credential.authenticatorData = (Data([0xEE, 0xEE]) + credential.authenticatorData).dropFirst(2)
        #expect(credential.authenticatorData.startIndex == 2)
        let verified = try WebAuthnVerifier().verifyAssertion(
            credential, publicKey: Data(CBORWriter.encode(try key.cose)), algorithm: .es256,
            expecting: fixture.expectation)
        #expect(verified.signCount == 42)
    }

    /// The counter is reported as sent, zero and lower ones too: judging it is the flow's (`PasskeySignCount`).
    @Test func theCounterIsReportedNotJudged() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.signCount = 0
        #expect(try fixture.verify().signCount == 0)
    }

    @Test func extensionsAreAcceptedWhenFlagged() throws {
        var fixture = AssertionFixture(key: try TestKey.ed25519())
        fixture.flags.insert(.extensionData)
        fixture.afterHead = CBORWriter.encode(.textMap([("credProtect", .int(1))]))
        #expect(try fixture.rejection() == nil)
    }

    @Test func aSignatureOverOtherBytesIsRefused() throws {
        for key in [try TestKey.p256(), try TestKey.ed25519(), try TestKey.rsa()] {
            var fixture = AssertionFixture(key: key)
            fixture.signature = try key.sign(fixture.authenticatorData + SHA256.hash(Data("other".utf8)))
            #expect(try fixture.rejection() == .signature, "\(key.algorithm)")
        }
    }

    @Test func anotherKeysSignatureIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.signature = try TestKey.p256().sign(fixture.signedMessage)
        #expect(try fixture.rejection() == .signature)
    }

    /// ES256 is DER in WebAuthn: the raw `r || s` form and a BER spelling of a valid signature are refused.
    @Test func anES256SignatureNotInStrictDERIsRefused() throws {
        let key = try TestKey.p256()
        var fixture = AssertionFixture(key: key)
        let der = try key.sign(fixture.signedMessage)
        #expect(der[0] == 0x30 && Int(der[1]) == der.count - 2)
        var longForm = Data([0x30, 0x81]) + der.dropFirst()
        #expect(longForm.count == der.count + 1)
        fixture.signature = longForm
        #expect(try fixture.rejection() == .signature, "a long-form length")
        longForm = der + [0x00]
        fixture.signature = longForm
        #expect(try fixture.rejection() == .signature, "a byte after the DER")
        fixture.signature = der
        #expect(try fixture.rejection() == nil)
    }

    @Test func anEdDSASignatureOfAnotherLengthIsRefused() throws {
        let key = try TestKey.ed25519()
        var fixture = AssertionFixture(key: key)
        fixture.signature = try key.sign(fixture.signedMessage) + [0x00]
        #expect(try fixture.rejection() == .signature)
    }

    @Test func clientDataThatIsNotJSONIsMalformed() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Data([0xFF, 0xFE])
        #expect(try fixture.rejection() == .malformed)
    }

    @Test func aRegistrationsClientDataIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create")
        #expect(try fixture.rejection() == .clientDataType)
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.get ")
        #expect(try fixture.rejection() == .clientDataType, "exactly")
    }

    @Test func anotherChallengeIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.expectation.challengeDigest = SHA256.hash(Data(repeating: 2, count: 32))
        #expect(try fixture.rejection() == .challenge)
    }

    @Test func anotherOriginIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.get", origin: "http://latch.test")
        #expect(try fixture.rejection() == .origin)
    }

    @Test func anotherRPIDHashIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.expectation.rpID = "other.test"
        #expect(try fixture.rejection() == .rpIDHash)
    }

    @Test func noUserPresenceIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.flags.remove(.userPresent)
        #expect(try fixture.rejection() == .userPresence)
    }

    @Test func noUserVerificationIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.flags.remove(.userVerified)
        #expect(try fixture.rejection() == .userVerification)
    }

    @Test func backedUpWithoutBackupEligibilityIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.flags.insert(.backedUp)
        #expect(try fixture.rejection() == .backupState)
    }

    /// An assertion brings no credential: AT set (with well-formed attested data) is refused.
    @Test func attestedCredentialDataIsRefused() throws {
        let key = try TestKey.p256()
        var fixture = AssertionFixture(key: key)
        fixture.flags.insert(.attestedCredentialData)
        fixture.afterHead = [UInt8](repeating: 0, count: 16) + [0x00, 0x01, 0x42] + CBORWriter.encode(try key.cose)
        #expect(try fixture.rejection() == .attestedCredentialData)
    }

    @Test func authenticatorDataCutShortOrWithExtraBytesIsMalformed() throws {
        let key = try TestKey.p256()
        var fixture = AssertionFixture(key: key)
        var credential = try fixture.credential
        credential.authenticatorData = Data(credential.authenticatorData.prefix(36))
        #expect(throws: PasskeyRejection(.malformed)) {
            try WebAuthnVerifier().verifyAssertion(credential, publicKey: Data(CBORWriter.encode(try key.cose)),
                                                   algorithm: .es256, expecting: fixture.expectation)
        }
        fixture.afterHead = [0x00]
        #expect(try fixture.rejection() == .malformed, "a byte no flag accounts for")
    }

    @Test func extensionsThatAreNotAStrictMapAreRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.flags.insert(.extensionData)
        fixture.afterHead = [0xBF, 0xFF]
        #expect(try fixture.rejection() == .cbor)
    }

    /// The stored key's algorithm must be the one the passkey was stored with.
    @Test func aStoredKeyOfAnotherAlgorithmIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.ed25519())
        fixture.algorithm = .es256
        #expect(try fixture.rejection() == .algorithm)
    }

    @Test func aStoredKeyThatDoesNotParseIsRefused() throws {
        var fixture = AssertionFixture(key: try TestKey.p256())
        fixture.storedKey = Data([0xA1, 0x01])
        #expect(try fixture.rejection() == .publicKey)
        fixture.storedKey = Data(CBORWriter.encode(.intMap([(1, .int(2)), (3, .int(-7))])))
        #expect(try fixture.rejection() == .publicKey, "no curve or point")
    }
}
