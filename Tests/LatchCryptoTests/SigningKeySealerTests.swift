import AuthCore
import Foundation
import LatchCrypto
import Testing

/// ES256/SigningKeySealer.swift: the private parts at rest.
@Suite struct SigningKeySealerTests {
    static let secret = try! ServerSecret(bytes: Data(repeating: 3, count: 32))

    @Test func aNewKeyIsNamedByItsThumbprintAndItsPrivatePartOpensOnlyUnderItsSecretAndKid() throws {
        let sealer = SigningKeySealer(secret: Self.secret)
        let key = try ES256KeyFactory(sealer: sealer).makeKey(createdAt: Date(), activatesAt: Date())
        #expect(key.kid == ES256KeyFactory.thumbprint(key.publicKey))
        #expect(key.kid.count == 43 && TokenText.isBase64URL(key.kid))
        let opened = try sealer.open(key.sealedPrivateKey, kid: key.kid)
        #expect(try opened.x963PublicKey == key.publicKey)
        #expect(!key.sealedPrivateKey.ciphertext.contains(try opened.derRepresentation.suffix(32)),
                "the private scalar is not in the stored bytes")

        #expect(throws: CryptoError.authenticationFailed) { try sealer.open(key.sealedPrivateKey, kid: "another-kid") }
        let otherSecret = SigningKeySealer(secret: try ServerSecret(bytes: Data(repeating: 4, count: 32)))
        #expect(throws: CryptoError.authenticationFailed) { try otherSecret.open(key.sealedPrivateKey, kid: key.kid) }
        #expect("\(key.sealedPrivateKey)" == "SealedPrivateKey(<redacted>)")
    }

    /// RFC 7638 §3 (SHA-256 over `{"crv","kty","x","y"}` in that order, no whitespace) for the key of RFC 7515's
    /// ES256 example; the expected value was computed apart, with Python's hashlib.
    @Test func theThumbprintIsRFC7638s() throws {
        let x = try #require(Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"))
        let y = try #require(Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"))
        #expect(ES256KeyFactory.thumbprint(Data([0x04]) + x + y) == "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U")
    }
}
