import Foundation
import LatchClient
import Testing

/// WebAuthn/: the Level 3 JSON types read the server's and a browser's JSON exactly, bytes as unpadded base64url, and
/// write it back member for member.
@Suite struct WebAuthnJSONTests {
    /// Decodes `literal`, encodes it again, and checks that both are the same JSON value.
    func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ literal: String) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: Data(literal.utf8))
        let encoded = try JSONEncoder().encode(value)
        let again = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(literal.utf8)) as? NSDictionary
        #expect(again == original, "\(String(decoding: encoded, as: UTF8.self))")
        #expect(try JSONDecoder().decode(T.self, from: encoded) == value)
        return value
    }

    @Test func registrationOptionsAsTheServerSendsThem() throws {
        let options = try roundTrip(PasskeyRegistrationOptions.self, """
        {"challenge_id":"6f1c2a4e-0000-4000-8000-000000000501","publicKey":{
          "rp":{"id":"latch.test","name":"Latch"},
          "user":{"id":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","name":"ada@example.com",
                  "displayName":"ada@example.com"},
          "challenge":"_-8","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-8},
                                                {"type":"public-key","alg":-257}],
          "timeout":300000,"attestation":"none",
          "authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},
          "excludeCredentials":[{"type":"public-key","id":"AQID","transports":["internal","hybrid"]}]}}
        """)
        #expect(options.challengeID == UUID(uuidString: "6f1c2a4e-0000-4000-8000-000000000501"))
        let publicKey = options.publicKey
        #expect(publicKey.rp == PublicKeyCredentialRpEntity(id: "latch.test", name: "Latch"))
        #expect(publicKey.user.id == Data(0..<32))
        #expect(publicKey.challenge == Data([0xFF, 0xEF]), "- and _ are base64url's 62 and 63")
        #expect(publicKey.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
        #expect(publicKey.timeout == 300_000)
        #expect(publicKey.authenticatorSelection == AuthenticatorSelectionCriteria(
            residentKey: "required", requireResidentKey: true, userVerification: "required"))
        #expect(publicKey.excludeCredentials == [PublicKeyCredentialDescriptorJSON(id: Data([1, 2, 3]),
                                                                                 transports: ["internal", "hybrid"])])
        #expect(publicKey.hints == nil && publicKey.attestationFormats == nil, "left out, and left out again")
    }

    @Test func requestOptionsAsTheServerSendsThem() throws {
        let options = try roundTrip(PasskeyAuthenticationOptions.self, """
        {"challenge_id":"6f1c2a4e-0000-4000-8000-000000000502","publicKey":{"challenge":"AAECAw","rpId":"latch.test",
         "timeout":300000,"userVerification":"required","allowCredentials":[]}}
        """)
        #expect(options.publicKey == PublicKeyCredentialRequestOptionsJSON(
            challenge: Data([0, 1, 2, 3]), timeout: 300_000, rpId: "latch.test", allowCredentials: [],
            userVerification: "required"))
    }

    @Test func aRegistrationResponseAsABrowserMakesIt() throws {
        let credential = try roundTrip(RegistrationResponseJSON.self, """
        {"id":"AQIDBA","rawId":"AQIDBA","type":"public-key","authenticatorAttachment":"platform",
         "clientExtensionResults":{},
         "response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0","attestationObject":"o2NmbXRkbm9uZQ",
                     "transports":["hybrid","internal"],"authenticatorData":"SZYN","publicKey":"MFkw",
                     "publicKeyAlgorithm":-7}}
        """)
        #expect(credential.rawID == Data([1, 2, 3, 4]))
        #expect(credential.id == "AQIDBA")
        #expect(String(decoding: credential.response.clientDataJSON, as: UTF8.self) == #"{"type":"webauthn.create"}"#)
        #expect(credential.response.attestationObject == Data([0xA3, 0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E,
                                                                0x65]))
        #expect(credential.response.transports == ["hybrid", "internal"])
        #expect(credential.response.publicKeyAlgorithm == -7)
        #expect(credential.authenticatorAttachment == "platform")
    }

    @Test func anAuthenticationResponseAsABrowserMakesIt() throws {
        let credential = try roundTrip(AuthenticationResponseJSON.self, """
        {"id":"BQYH","rawId":"BQYH","type":"public-key","clientExtensionResults":{},
         "response":{"clientDataJSON":"e30","authenticatorData":"SZYN5YgO","signature":"MEUCIQ",
                     "userHandle":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"}}
        """)
        #expect(credential.rawID == Data([5, 6, 7]))
        #expect(credential.response.clientDataJSON == Data("{}".utf8))
        #expect(credential.response.userHandle == Data(0..<32))
        #expect(credential.authenticatorAttachment == nil)
    }

    @Test func whatTheClientMakesEncodesAsWebAuthnNamesIt() throws {
        let credential = AuthenticationResponseJSON(
            rawID: Data([0xFB, 0xFF]),
            response: AuthenticatorAssertionResponseJSON(clientDataJSON: Data([0]), authenticatorData: Data([1, 2]),
                                                         signature: Data([3, 4, 5]), userHandle: nil),
            authenticatorAttachment: "cross-platform")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(credential), as: UTF8.self) == #"""
            {"authenticatorAttachment":"cross-platform","clientExtensionResults":{},"id":"-_8","rawId":"-_8",\#
            "response":{"authenticatorData":"AQI","clientDataJSON":"AA","signature":"AwQF"},"type":"public-key"}
            """#, "no padding, the URL alphabet, no userHandle key without one")
    }

    @Test(arguments: [
        #"{"id":"AQIDBA==","rawId":"AQIDBA==","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
        #"{"id":"AQID+A","rawId":"AQID+A","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
        #"{"id":"AQIDB","rawId":"AQIDB","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
        #"{"id":"AB","rawId":"AB","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
        #"{"id":"AQIDBA","rawId":"AQIDBQ","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
        #"{"rawId":"AQIDBA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"","signature":""}}"#,
    ])
    func onlyCanonicalUnpaddedBase64URLWithIdEqualToRawIdIsRead(_ literal: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(literal.utf8))
        }
    }

    @Test func aPasskeyAsTheServerListsIt() throws {
        let passkey = try APIJSONDecoding.decode(Passkey.self, """
        {"id":"6f1c2a4e-0000-4000-8000-000000000701","name":"iPhone","created_at":"2024-01-01T00:00:00Z",
         "last_used_at":null,"backup_eligible":true,"backed_up":false,"transports":["internal","hybrid"],
         "aaguid":"fbfc3007-154e-4ecc-8c0b-6e020557d7bd","algorithm":-7}
        """)
        #expect(passkey == Passkey(
            id: FakeLatchServer.passkeyID(1), name: "iPhone", createdAt: Date(timeIntervalSince1970: 1_704_067_200),
            lastUsedAt: nil, backupEligible: true, backedUp: false, transports: ["internal", "hybrid"],
            aaguid: UUID(uuidString: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd") ?? UUID(), algorithm: -7))
    }
}

/// Decodes `literal` as the client reads answers (ISO 8601 dates).
enum APIJSONDecoding {
    static func decode<T: Decodable>(_ type: T.Type, _ literal: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(literal.utf8))
    }
}
