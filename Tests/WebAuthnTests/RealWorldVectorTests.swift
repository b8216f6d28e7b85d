import AuthCore
import Foundation
import LatchCrypto
import Testing
@testable import WebAuthn

/// Responses recorded from real browsers and authenticators, not made by this suite's own writer: the test data
/// of duo-labs/py_webauthn (tests/test_verify_registration_response.py, test_verify_authentication_response.py).
@Suite struct RealWorldVectorTests {
    private static func decode(_ text: String) throws -> Data {
        try #require(Base64URL.decode(text))
    }

    private static func expectation(challenge: String) throws -> PasskeyExpectation {
        PasskeyExpectation(challengeDigest: SHA256.hash(try decode(challenge)), rpID: "localhost",
                           origins: ["http://localhost:5000"])
    }

    /// A `none` attestation with a P-256 key (flags UP, UV, AT; counter 23).
    @Test func aRecordedNoneRegistrationIsAccepted() throws {
        let rawID = try Self.decode("9y1xA8Tmg1FEmT-c7_fvWZ_uoTuoih3OvR45_oAK-cwHWhAbXrl2q62iLVTjiyEZ7O7n-CROOY494k7Q3xrs_w")
        let credential = PasskeyRegistrationCredential(
            rawID: rawID,
            clientDataJSON: try Self.decode(
                "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiVHdON240V1R5R0tMYzRaWS1xR3NGcUtuSE00bmdscXN5VjBJQ0psTjJUTzlYaVJ5RnRya2FEd1V2c3FsLWdrTEpYUDZmbkYxTWxyWjUzTW00UjdDdnciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"),
            attestationObject: try Self.decode(
                "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjESZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAFwAAAAAAAAAAAAAAAAAAAAAAQPctcQPE5oNRRJk_nO_371mf7qE7qIodzr0eOf6ACvnMB1oQG165dqutoi1U44shGezu5_gkTjmOPeJO0N8a7P-lAQIDJiABIVggSFbUJF-42Ug3pdM8rDRFu_N5oiVEysPDB6n66r_7dZAiWCDUVnB39FlGypL-qAoIO9xWHtJygo2jfDmHl-_eKFRLDA")
        )
        let expectation = try Self.expectation(
            challenge: "TwN7n4WTyGKLc4ZY-qGsFqKnHM4nglqsyV0ICJlN2TO9XiRyFtrkaDwUvsql-gkLJXP6fnF1MlrZ53Mm4R7Cvw")
        let verified = try WebAuthnVerifier().verifyRegistration(credential, expecting: expectation)
        #expect(verified.credentialID == rawID)
        #expect(verified.algorithm == .es256)
        #expect(verified.signCount == 23)
        #expect(verified.aaguid == Data(count: 16))
        #expect(verified.attestationFormat == "none")
        #expect(!verified.backupEligible && !verified.backedUp)
        // The stored key is the COSE map's own bytes: a five-entry map (0xA5), 77 bytes for a P-256 key.
        #expect(verified.publicKey.first == 0xA5 && verified.publicKey.count == 77)
        #expect(credential.attestationObject.range(of: verified.publicKey) != nil)
    }

    /// An EC2 assertion made without user verification (flags UP only): Latch asks for UV and refuses it, after
    /// client data, RP ID hash and UP have passed; its DER signature itself is good.
    @Test func aRecordedAssertionWithoutUserVerification() throws {
        let authenticatorData = try Self.decode("SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAATg")
        let clientDataJSON = try Self.decode(
            "eyJjaGFsbGVuZ2UiOiJ4aTMwR1BHQUZZUnhWRHBZMXNNMTBEYUx6VlFHNjZudi1fN1JVYXpIMHZJMll2RzhMWWdERW52TjVmWlpOVnV2RUR1TWk5dGUzVkxxYjQyTjBma0xHQSIsImNsaWVudEV4dGVuc2lvbnMiOnt9LCJoYXNoQWxnb3JpdGhtIjoiU0hBLTI1NiIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTAwMCIsInR5cGUiOiJ3ZWJhdXRobi5nZXQifQ")
        let signature = try Self.decode(
            "MEUCIGisVZOBapCWbnJJvjelIzwpixxIwkjCCb5aCHafQu68AiEA88v-2pJNNApPFwAKFiNuf82-2hBxYW5kGwVweeoxCwo")
        let publicKey = try Self.decode(
            "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI")
        let credential = PasskeyAssertionCredential(rawID: Data([1]), clientDataJSON: clientDataJSON,
                                                    authenticatorData: authenticatorData, signature: signature,
                                                    userHandle: nil)
        let expectation = try Self.expectation(
            challenge: "xi30GPGAFYRxVDpY1sM10DaLzVQG66nv-_7RUazH0vI2YvG8LYgDEnvN5fZZNVuvEDuMi9te3VLqb42N0fkLGA")
        #expect(throws: PasskeyRejection(.userVerification)) {
            try WebAuthnVerifier().verifyAssertion(credential, publicKey: publicKey, algorithm: .es256,
                                                   expecting: expectation)
        }
        let key = try CredentialPublicKey(try COSEKey.parse(try StrictCBOR.decode(publicKey), allowing: [.es256]))
        let message = authenticatorData + SHA256.hash(clientDataJSON)
        #expect(key.isValidSignature(signature, for: message))
        #expect(!key.isValidSignature(signature, for: message + [0]))
    }
}
