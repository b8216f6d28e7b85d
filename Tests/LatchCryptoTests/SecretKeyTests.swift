import AuthCore
import Foundation
import LatchCrypto
import Testing

@Suite struct SecretKeyTests {
    /// RFC 4231 test case 2.
    @Test func hmacMatchesTheRFC4231Vector() {
        let mac = HMACSHA256.authenticate(Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined()
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// RFC 5869 test case 1's expand step, from its PRK: T(1) is the first 32 bytes of its OKM.
    @Test func derivationIsHKDFExpandsFirstBlock() throws {
        let prk = Data(hex: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let info = Data(hex: "f0f1f2f3f4f5f6f7f8f9")
        let block = HMACSHA256.authenticate(info + [0x01], key: prk)
        #expect(block == Data(hex: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"))
    }

    @Test func eachPurposeGetsItsOwnStableKey() throws {
        let secret = try ServerSecret(bytes: Data(repeating: 7, count: 32))
        let deriver = SecretKeyDeriver(secret: secret)
        let keys = SecretPurpose.allCases.map(deriver.key(for:))
        #expect(Set(keys).count == SecretPurpose.allCases.count && keys.allSatisfy { $0.count == 32 })
        #expect(keys == SecretPurpose.allCases.map(SecretKeyDeriver(secret: secret).key(for:)))
        let other = SecretKeyDeriver(secret: try ServerSecret(bytes: Data(repeating: 8, count: 32)))
        #expect(other.key(for: .oneTimeCodes) != keys[0])
        #expect(!keys.contains(secret.bytes), "no purpose uses the secret itself")
    }

    @Test func aSecretIsBase64OfExactly32BytesAndNeverPrints() throws {
        let text = Data(repeating: 1, count: 32).base64EncodedString()
        let secret = try ServerSecret(base64: text + "\n")
        #expect(secret.base64 == text)
        #expect(throws: ServerSecretError.wrongLength(16)) { try ServerSecret(base64: Data(count: 16).base64EncodedString()) }
        #expect(throws: ServerSecretError.notBase64) { try ServerSecret(base64: "not base64!") }
        #expect("\(secret)" == "<redacted>" && String(reflecting: secret) == "ServerSecret(<redacted>)")
    }
}

extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
