import AuthCore
import Foundation
import LatchCrypto
@testable import WebAuthn

/// What both ceremonies' fixtures share: the relying party, the challenge, and the client data a browser writes.
enum Ceremony {
    static let rpID = "latch.test"
    static let origin = "https://latch.test"
    static let challenge = Data((0..<32).map { UInt8($0 &* 7 &+ 1) })

    static func expectation(algorithms: [PasskeyAlgorithm] = PasskeyAlgorithm.allCases) -> PasskeyExpectation {
        PasskeyExpectation(challengeDigest: SHA256.hash(challenge), rpID: rpID,
                           origins: [origin, "android:apk-key-hash:abc"], algorithms: algorithms)
    }

    /// `clientDataJSON` as a browser serializes it (WebAuthn L3 §5.8.1.1), members added as given.
    static func clientDataJSON(type: String, challenge: String = Base64URL.encode(challenge), origin: String = origin,
                               extra: String = #","crossOrigin":false"#) -> Data
    {
        Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)"\#(extra)}"#.utf8)
    }

    /// The flags byte from its named bits.
    static func flags(_ flags: AuthenticatorFlags) -> UInt8 { flags.rawValue }

    /// UP and UV: what every accepted ceremony has.
    static let presentAndVerified: AuthenticatorFlags = [.userPresent, .userVerified]

    /// `rpIdHash || flags || signCount`.
    static func authenticatorDataHead(rpIDHash: Data = SHA256.hash(rpID), flags: AuthenticatorFlags,
                                      signCount: UInt32) -> Data
    {
        rpIDHash + [flags.rawValue] + CBORWriter.bigEndian(UInt64(signCount), 4)
    }
}

/// A registration response an authenticator and browser would send, with every part open to a test's change.
struct RegistrationFixture {
    var key: TestKey
    var clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.create")
    var rpIDHash = SHA256.hash(Ceremony.rpID)
    var flags: AuthenticatorFlags = Ceremony.presentAndVerified.union(.attestedCredentialData)
    var signCount: UInt32 = 0
    var aaguid = Data((1...16).map { UInt8($0) })
    var credentialID = Data((0..<20).map { UInt8(0xA0 + $0) })
    /// nil: the same as `credentialID`.
    var rawID: Data?
    /// nil: the key's own COSE map.
    var coseKey: CBORValue?
    /// Raw bytes after the COSE key (extensions, or junk).
    var afterKey: [UInt8] = []
    var format = "none"
    var statement: CBORValue = .map([])
    var expectation = Ceremony.expectation()

    init(key: TestKey) {
        self.key = key
    }

    var coseKeyBytes: [UInt8] {
        get throws { CBORWriter.encode(try coseKey ?? key.cose) }
    }

    var authenticatorData: Data {
        get throws {
            var data = Ceremony.authenticatorDataHead(rpIDHash: rpIDHash, flags: flags, signCount: signCount)
            data += aaguid + CBORWriter.bigEndian(UInt64(credentialID.count), 2) + credentialID
            return data + (try coseKeyBytes) + afterKey
        }
    }

    func attestationObject(authenticatorData: Data) -> Data {
        Data(CBORWriter.encode(.textMap([
            ("fmt", .text(format)), ("attStmt", statement), ("authData", .bytes(authenticatorData)),
        ])))
    }

    var credential: PasskeyRegistrationCredential {
        get throws {
            PasskeyRegistrationCredential(rawID: rawID ?? credentialID, clientDataJSON: clientDataJSON,
                                          attestationObject: attestationObject(authenticatorData: try authenticatorData))
        }
    }

    func verify() throws -> VerifiedPasskeyRegistration {
        try WebAuthnVerifier().verifyRegistration(try credential, expecting: expectation)
    }

    /// The reason the verifier gives, or nil if it accepts.
    func rejection() throws -> PasskeyRejection.Reason? {
        let credential = try credential
        do {
            _ = try WebAuthnVerifier().verifyRegistration(credential, expecting: expectation)
            return nil
        } catch {
            return error.reason
        }
    }
}

/// An assertion an authenticator and browser would send for a stored passkey, every part open to change.
struct AssertionFixture {
    var key: TestKey
    var clientDataJSON = Ceremony.clientDataJSON(type: "webauthn.get")
    var rpIDHash = SHA256.hash(Ceremony.rpID)
    var flags: AuthenticatorFlags = Ceremony.presentAndVerified
    var signCount: UInt32 = 42
    /// Raw bytes after the fixed part (attested data, extensions, or junk).
    var afterHead: [UInt8] = []
    /// nil: the key's signature over authenticator data and the client data's hash.
    var signature: Data?
    /// nil: the key's own COSE map, as registration stored it.
    var storedKey: Data?
    /// nil: the key's algorithm.
    var algorithm: PasskeyAlgorithm?
    var expectation = Ceremony.expectation()

    init(key: TestKey) {
        self.key = key
    }

    var authenticatorData: Data {
        Ceremony.authenticatorDataHead(rpIDHash: rpIDHash, flags: flags, signCount: signCount) + afterHead
    }

    var signedMessage: Data { authenticatorData + SHA256.hash(clientDataJSON) }

    var credential: PasskeyAssertionCredential {
        get throws {
            PasskeyAssertionCredential(rawID: Data([1, 2, 3]), clientDataJSON: clientDataJSON,
                                       authenticatorData: authenticatorData,
                                       signature: try signature ?? key.sign(signedMessage), userHandle: Data([9]))
        }
    }

    func verify() throws -> VerifiedPasskeyAssertion {
        try WebAuthnVerifier().verifyAssertion(try credential,
                                               publicKey: try storedKey ?? Data(CBORWriter.encode(key.cose)),
                                               algorithm: algorithm ?? key.algorithm, expecting: expectation)
    }

    func rejection() throws -> PasskeyRejection.Reason? {
        let credential = try credential
        let publicKey = try storedKey ?? Data(CBORWriter.encode(key.cose))
        do {
            _ = try WebAuthnVerifier().verifyAssertion(credential, publicKey: publicKey,
                                                       algorithm: algorithm ?? key.algorithm, expecting: expectation)
            return nil
        } catch {
            return error.reason
        }
    }
}
