import Foundation
import LatchCrypto
import Testing

/// ES256/P256PrivateKey.swift, P256PublicKey.swift, ECDSASignature.swift (its low-S rule: ECDSASignatureTests).
@Suite struct ES256Tests {
    /// RFC 7515 Appendix A.3: a JWS signed by another implementation, checked here with the RFC's public key. It
    /// fails if the 64-byte `r || s` form were read any other way than JOSE writes it. The RFC's s is high, so
    /// Latch refuses the example as printed and verifies its low-S twin (ECDSASignatureTests).
    @Test func theRFC7515ExampleVerifiesInItsLowSForm() throws {
        let x = try #require(Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"))
        let y = try #require(Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"))
        let key = try P256PublicKey(x963Representation: Data([0x04]) + x + y)
        let input = "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        let printed = try #require(Base64URL.decode(
            "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"))
        #expect(!ECDSAReference.isLow(ECDSAReference.s(of: printed)))
        #expect(ECDSAReference.openSSLVerifies(printed, for: Data(input.utf8), with: key))
        #expect(!key.isValidSignature(printed, for: Data(input.utf8)))
        let signature = ECDSAReference.twin(of: printed)
        #expect(key.isValidSignature(signature, for: Data(input.utf8)))
        #expect(!key.isValidSignature(signature, for: Data((input + "x").utf8)))
        // r and s swapped is not the same signature.
        #expect(!key.isValidSignature(signature.suffix(32) + signature.prefix(32), for: Data(input.utf8)))
    }

    @Test func aSignatureIs64BytesAndVerifiesOnlyForItsKeyAndMessage() throws {
        let key = try P256PrivateKey.generate()
        let other = try P256PrivateKey.generate()
        let message = Data("header.payload".utf8)
        for _ in 0..<20 {  // r or s with leading zero bytes must still be padded to 32 bytes each
            let signature = try key.signature(for: message)
            #expect(signature.count == 64)
            #expect(try key.publicKey.isValidSignature(signature, for: message))
            #expect(try !other.publicKey.isValidSignature(signature, for: message))
            #expect(try !key.publicKey.isValidSignature(signature, for: Data("header.payloaD".utf8)))
        }
    }

    @Test func malformedSignaturesAreFalseNotErrors() throws {
        let key = try P256PrivateKey.generate()
        let message = Data("m".utf8)
        let signature = try key.signature(for: message)
        let publicKey = try key.publicKey
        #expect(!publicKey.isValidSignature(Data(), for: message))
        #expect(!publicKey.isValidSignature(signature.prefix(63), for: message))
        #expect(!publicKey.isValidSignature(signature + [0], for: message))
        #expect(!publicKey.isValidSignature(Data(count: 64), for: message), "r = s = 0")
        #expect(!publicKey.isValidSignature(Data(repeating: 0xff, count: 64), for: message), "r, s past the order")
        // A DER signature (what OpenSSL makes) is not the JOSE form.
        #expect(!publicKey.isValidSignature(Data([0x30, 0x44]) + signature.prefix(62), for: message))
    }

    @Test func aKeySurvivesItsDERFormAndPublishesAnUncompressedPoint() throws {
        let key = try P256PrivateKey.generate()
        let point = try key.x963PublicKey
        #expect(point.count == 65 && point.first == 0x04)
        let restored = try P256PrivateKey(derRepresentation: try key.derRepresentation)
        #expect(try restored.x963PublicKey == point)
        let message = Data("same key".utf8)
        #expect(try P256PublicKey(x963Representation: point).isValidSignature(restored.signature(for: message),
                                                                              for: message))
        #expect(try P256PrivateKey.generate().x963PublicKey != point)
    }

    @Test func bytesThatAreNoP256KeyAreRefused() throws {
        let point = try P256PrivateKey.generate().x963PublicKey
        var offCurve = point
        offCurve[64] ^= 0x01  // y changed: no longer on the curve
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: offCurve) }
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: point.prefix(33)) }
        var compressedTag = point
        compressedTag[0] = 0x02
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: compressedTag) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(derRepresentation: Data("not DER".utf8)) }
    }
}
