import AuthCore
import Foundation
import LatchCrypto
import Testing
@testable import WebAuthn

/// WebAuthnVerifier.verifyRegistration (§7.1): a response from each kind of key is accepted and what is stored is
/// what was sent; each fault is refused with its own reason, one fault per test, so removing a check fails it.
@Suite struct RegistrationTests {
    @Test func aResponseFromEachKindOfKeyIsAccepted() throws {
        for key in [try TestKey.p256(), try TestKey.ed25519(), try TestKey.rsa()] {
            var fixture = RegistrationFixture(key: key)
            fixture.signCount = 7
            let verified = try fixture.verify()
            #expect(verified.algorithm == key.algorithm)
            #expect(verified.credentialID == fixture.credentialID)
            #expect(verified.publicKey == Data(try fixture.coseKeyBytes), "the COSE key as sent")
            #expect(verified.signCount == 7)
            #expect(verified.aaguid == fixture.aaguid)
            #expect(verified.attestationFormat == "none")
            #expect(!verified.backupEligible && !verified.backedUp)
        }
    }

    @Test func backupFlagsAreReported() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.flags.formUnion([.backupEligible, .backedUp])
        let verified = try fixture.verify()
        #expect(verified.backupEligible && verified.backedUp)
        fixture.flags.remove(.backedUp)
        #expect(try fixture.verify().backupEligible && !(try fixture.verify().backedUp))
    }

    /// Another format's statement is not verified (no trust anchors) and does not make the passkey trusted.
    @Test func anotherAttestationFormatIsRecordedAsSent() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.format = "packed"
        fixture.statement = .textMap([("alg", .int(-7)), ("sig", .bytes(Data([1, 2, 3])))])
        #expect(try fixture.verify().attestationFormat == "packed")
    }

    @Test func extensionsAfterTheKeyAreAcceptedWhenFlagged() throws {
        var fixture = RegistrationFixture(key: try TestKey.ed25519())
        fixture.flags.insert(.extensionData)
        fixture.afterKey = CBORWriter.encode(.textMap([("credProtect", .int(2))]))
        #expect(try fixture.verify().algorithm == .edDSA)
    }

    @Test func clientDataThatIsNotJSONIsMalformed() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Data("{\"type\":".utf8)
        #expect(try fixture.rejection() == .malformed)
        fixture.clientDataJSON = Data(#"{"type":"webauthn.create","origin":"https://latch.test"}"#.utf8)
        #expect(try fixture.rejection() == .malformed, "no challenge")
    }

    @Test func anAssertionsClientDataIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.get")
        #expect(try fixture.rejection() == .clientDataType)
    }

    @Test func anotherChallengeIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create",
                                                         challenge: Base64URL.encode(Data(repeating: 1, count: 32)))
        #expect(try fixture.rejection() == .challenge)
    }

    /// The right bytes in another spelling (padded, or standard base64) are not the challenge's text.
    @Test func aChallengeNotInUnpaddedBase64URLIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        let padded = Ceremony.challenge.base64EncodedString()
        #expect(padded.hasSuffix("="))
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", challenge: padded)
        #expect(try fixture.rejection() == .challenge)
    }

    @Test func anotherOriginIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", origin: "https://evil.test")
        #expect(try fixture.rejection() == .origin)
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", origin: "https://latch.test/")
        #expect(try fixture.rejection() == .origin, "exact match only")
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", origin: "android:apk-key-hash:abc")
        #expect(try fixture.rejection() == nil, "every configured origin is taken")
    }

    @Test func aCrossOriginCeremonyIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", extra: #","crossOrigin":true"#)
        #expect(try fixture.rejection() == .origin)
        fixture.clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create", extra: "")
        #expect(try fixture.rejection() == nil, "crossOrigin may be left out")
    }

    @Test func aTopOriginIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.clientDataJSON = Ceremony.clientDataJSON(
            type: "webauthn.create", extra: #","crossOrigin":false,"topOrigin":"https://latch.test""#)
        #expect(try fixture.rejection() == .origin)
    }

    @Test func anAttestationObjectThatIsNotStrictCBORIsRefused() throws {
        let fixture = RegistrationFixture(key: try TestKey.p256())
        var credential = try fixture.credential
        credential.attestationObject += [0x00]
        #expect(rejection(of: credential, fixture) == .cbor, "trailing bytes")
        // The map header says three members; a fourth repeating `fmt` is a duplicate key.
        var duplicate = try fixture.credential.attestationObject
        duplicate[0] = 0xA4
        duplicate += CBORWriter.encode(.text("fmt")) + CBORWriter.encode(.text("none"))
        credential.attestationObject = duplicate
        #expect(rejection(of: credential, fixture) == .cbor, "duplicate key")
    }

    @Test func anAttestationObjectOfAnotherShapeIsRefused() throws {
        let fixture = RegistrationFixture(key: try TestKey.p256())
        let authenticatorData = try fixture.authenticatorData
        var credential = try fixture.credential
        credential.attestationObject = Data(CBORWriter.encode(.textMap([
            ("fmt", .text("none")), ("attStmt", .map([])), ("authData", .bytes(authenticatorData)), ("x", .null),
        ])))
        #expect(rejection(of: credential, fixture) == .cbor, "an extra member")
        credential.attestationObject = Data(CBORWriter.encode(.textMap([
            ("fmt", .text("none")), ("attStmt", .map([])), ("authData", .text("x")),
        ])))
        #expect(rejection(of: credential, fixture) == .cbor, "authData not bytes")
        credential.attestationObject = Data(CBORWriter.encode(.textMap([
            ("fmt", .text("none\n")), ("attStmt", .map([])), ("authData", .bytes(authenticatorData)),
        ])))
        #expect(rejection(of: credential, fixture) == .cbor, "a format that is no identifier")
    }

    @Test func anotherRPIDHashIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.rpIDHash = SHA256.hash("evil.test")
        #expect(try fixture.rejection() == .rpIDHash)
    }

    @Test func noUserPresenceIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.flags.remove(.userPresent)
        #expect(try fixture.rejection() == .userPresence)
    }

    @Test func noUserVerificationIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.flags.remove(.userVerified)
        #expect(try fixture.rejection() == .userVerification)
    }

    @Test func backedUpWithoutBackupEligibilityIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.flags.insert(.backedUp)
        #expect(try fixture.rejection() == .backupState)
    }

    @Test func noAttestedCredentialDataIsRefused() throws {
        let fixture = RegistrationFixture(key: try TestKey.p256())
        var credential = try fixture.credential
        let head = Ceremony.authenticatorDataHead(flags: Ceremony.presentAndVerified, signCount: 0)
        credential.attestationObject = fixture.attestationObject(authenticatorData: head)
        #expect(rejection(of: credential, fixture) == .attestedCredentialData)
    }

    @Test func bytesAfterTheKeyWithoutExtensionsAreRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.afterKey = [0xA0]
        #expect(try fixture.rejection() == .attestedCredentialData)
    }

    @Test func extensionsThatAreNotAStrictMapAreRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.flags.insert(.extensionData)
        fixture.afterKey = CBORWriter.encode(.array([]))
        #expect(try fixture.rejection() == .cbor)
        fixture.afterKey = [0xA2, 0x01, 0x01, 0x01, 0x02]
        #expect(try fixture.rejection() == .cbor, "duplicate key")
        fixture.afterKey = []
        #expect(try fixture.rejection() == .cbor, "ED with nothing after the key")
    }

    @Test func authenticatorDataCutShortIsMalformed() throws {
        let fixture = RegistrationFixture(key: try TestKey.p256())
        var credential = try fixture.credential
        let full = try fixture.authenticatorData
        credential.attestationObject = fixture.attestationObject(authenticatorData: Data(full.prefix(36)))
        #expect(rejection(of: credential, fixture) == .malformed)
        credential.attestationObject = fixture.attestationObject(authenticatorData: Data(full.prefix(60)))
        #expect(rejection(of: credential, fixture) == .malformed, "inside the credential id")
    }

    @Test func aRawIDOtherThanTheCredentialIDIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.rawID = Data(repeating: 0xA0, count: 20)
        #expect(try fixture.rejection() == .credentialID)
    }

    @Test func aCredentialIDOver1023BytesIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.credentialID = Data(repeating: 7, count: 1023)
        #expect(try fixture.rejection() == nil)
        fixture.credentialID = Data(repeating: 7, count: 1024)
        #expect(try fixture.rejection() == .credentialID)
        fixture.credentialID = Data()
        #expect(try fixture.rejection() == .credentialID, "empty")
    }

    @Test func aKeyWhoseAlgorithmWasNotOfferedIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.ed25519())
        fixture.expectation = Ceremony.expectation(algorithms: [.es256, .rs256])
        #expect(try fixture.rejection() == .algorithm)
    }

    @Test func anInvalidPublicKeyIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.rsa(bits: 1024))
        #expect(try fixture.rejection() == .publicKey)
        fixture.coseKey = .intMap([(1, .int(2))])
        #expect(try fixture.rejection() == .algorithm, "no alg")
    }

    @Test func aKeyThatIsNotStrictCBORIsRefused() throws {
        let key = try TestKey.p256()
        let fixture = RegistrationFixture(key: key)
        var credential = try fixture.credential
        let cose = try fixture.coseKeyBytes
        // The same map with an indefinite-length header.
        let indefinite = [UInt8(0xBF)] + cose.dropFirst() + [0xFF]
        let data = try fixture.authenticatorData.dropLast(cose.count) + indefinite
        credential.attestationObject = fixture.attestationObject(authenticatorData: Data(data))
        #expect(rejection(of: credential, fixture) == .cbor)
    }

    @Test func aNoneAttestationWithAStatementIsRefused() throws {
        var fixture = RegistrationFixture(key: try TestKey.p256())
        fixture.statement = .textMap([("sig", .bytes(Data([1])))])
        #expect(try fixture.rejection() == .attestationStatement)
    }

    private func rejection(of credential: PasskeyRegistrationCredential, _ fixture: RegistrationFixture)
        -> PasskeyRejection.Reason?
    {
        do {
            _ = try WebAuthnVerifier().verifyRegistration(credential, expecting: fixture.expectation)
            return nil
        } catch {
            return error.reason
        }
    }
}
