import Foundation
import LatchCrypto
import Testing

@Suite struct OpenSSLTokenGeneratorTests {
    let generator = OpenSSLTokenGenerator()

    @Test func tokensAre43Base64URLCharactersFor256Bits() throws {
        let token = generator.makeToken()
        #expect(token.count == 43)
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        let bytes = try #require(Base64URL.decode(token))
        #expect(bytes.count == 32)
    }

    @Test func tenThousandTokensAreDistinct() {
        let tokens = Set((0..<10_000).map { _ in generator.makeToken() })
        #expect(tokens.count == 10_000)
    }

    @Test func tokensUseTheWholeAlphabet() {
        // 1,000 tokens = 43,000 characters: every one of the 64 symbols shows up unless the encoding is wrong.
        let seen = Set((0..<1_000).flatMap { _ in generator.makeToken() })
        #expect(seen.count == 64)
    }

    @Test func digestIsSHA256OfTheUTF8Bytes() {
        let hex = generator.digest("abc").map { String(format: "%02x", $0) }.joined()
        #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let empty = SHA256.hash(Data()).map { String(format: "%02x", $0) }.joined()
        #expect(empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func constantTimeEqualsComparesContentAndLength() {
        let a = Data([1, 2, 3, 4])
        #expect(generator.constantTimeEquals(a, Data([1, 2, 3, 4])))
        #expect(!generator.constantTimeEquals(a, Data([1, 2, 3, 5])))
        #expect(!generator.constantTimeEquals(a, Data([9, 2, 3, 4])))
        #expect(!generator.constantTimeEquals(a, Data([1, 2, 3])))
        #expect(!generator.constantTimeEquals(a, Data()))
        #expect(generator.constantTimeEquals(Data(), Data()))
        let token = generator.makeToken()
        #expect(generator.constantTimeEquals(generator.digest(token), generator.digest(token)))
    }
}
