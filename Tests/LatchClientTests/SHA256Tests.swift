import Foundation
@testable import LatchClient
import Testing

/// Crypto/: the SHA-256 behind the sign-in binding, against FIPS 180-4's examples and lengths around the block
/// boundaries, both the platform's (CryptoKit on Apple) and the plain Swift one (always, so Linux's is checked
/// wherever the tests run); and the base64url the server reads.
@Suite struct SHA256Tests {
    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ text: String) -> Data { Data(text.utf8) }

    static func a(_ count: Int) -> Data { Data(repeating: UInt8(ascii: "a"), count: count) }

    /// FIPS 180-4's examples (NIST's "SHA256.pdf" and the long-message vector), and `a`s of lengths around the
    /// 55/56/64-byte padding boundaries (digests from coreutils' sha256sum).
    static let vectors: [(Data, String)] = [
        (bytes(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (bytes("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (bytes("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu"), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        (a(55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (a(56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (a(57), "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
        (a(63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (a(64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (a(65), "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (a(119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (a(120), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ]

    @Test func theStandardsExamplesAndTheBlockBoundaries() {
        for (message, expected) in Self.vectors {
            #expect(Self.hex(SHA256Hash.portableDigest(message)) == expected, "\(message.count) bytes")
            #expect(Self.hex(SHA256Hash.digest(message)) == expected, "\(message.count) bytes")
        }
    }

    @Test func aMillionAs() {
        let million = Self.a(1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(Self.hex(SHA256Hash.portableDigest(million)) == expected)
        #expect(Self.hex(SHA256Hash.digest(million)) == expected)
    }

    @Test func everyByteValueGoesIn() {
        // Bytes with the high bit set catch a sign-extension slip when words are assembled.
        let message = Data((0...255).map { UInt8($0) })
        #expect(SHA256Hash.portableDigest(message) == SHA256Hash.digest(message))
        #expect(Self.hex(SHA256Hash.portableDigest(message))
                == "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880")
    }

    @Test func theBindingIsBase64URLOfTheDigestWithoutPadding() {
        // Digests from Python's hashlib and base64.urlsafe_b64encode, padding stripped.
        let ascending = Data((0..<32).map { UInt8($0) })
        #expect(EmailSignInBinding.encoded(ascending) == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(EmailSignInBinding.binding(for: ascending) == "Yw3NKWbEM2aRElRIu7JbT_QSpJxzLbLIq8G4WBvXEN0")
        let high = Data((224..<256).map { UInt8($0) })
        #expect(EmailSignInBinding.encoded(high) == "4OHi4-Tl5ufo6err7O3u7_Dx8vP09fb3-Pn6-_z9_v8",
                "- and _, not + and /")
        #expect(EmailSignInBinding.binding(for: high) == "lDLBp9ND_PrLFkvcRP9xwSgcAEiGscQoQZCI0GzTVho")
    }

    @Test func secretsAre32FreshRandomBytes() {
        let secrets = (0..<100).map { _ in EmailSignInBinding.makeSecret() }
        #expect(secrets.allSatisfy { $0.count == 32 })
        #expect(Set(secrets).count == 100)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for secret in secrets {
            for text in [EmailSignInBinding.encoded(secret), EmailSignInBinding.binding(for: secret)] {
                #expect(text.count == 43 && text.allSatisfy { alphabet.contains($0) }, "\(text)")
            }
        }
    }
}
