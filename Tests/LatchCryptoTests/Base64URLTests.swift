import Foundation
import LatchCrypto
import Testing

@Suite struct Base64URLTests {
    @Test func encodesWithURLAlphabetAndNoPadding() {
        #expect(Base64URL.encode(Data([0xfb, 0xff, 0xfe])) == "-__-")
        #expect(Base64URL.encode(Data([0x66])) == "Zg")
        #expect(Base64URL.encode(Data()) == "")
    }

    @Test(arguments: [0, 1, 2, 3, 31, 32, 33])
    func roundTrips(count: Int) throws {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) })
        #expect(try #require(Base64URL.decode(Base64URL.encode(data))) == data)
    }

    @Test func agreesWithFoundationsBase64ForEveryLengthUpTo100() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...100 {
            let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let expected = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == expected, "length \(count)")
        }
    }

    @Test func decodesWhatFoundationDecodesForEveryLengthUpTo100() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...100 {
            let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.decode(text) == data, "length \(count)")
            #expect(Base64URL.decode(text[...]) == data, "a Substring, without a copy")
        }
    }

    /// "Zg" is 0x66; "Zh" sets an unused bit of the last character: the same byte, spelled a second way.
    @Test func onlyTheCanonicalSpellingDecodes() {
        #expect(Base64URL.decode("Zg") == Data([0x66]))
        #expect(Base64URL.decode("Zh") == nil)
        #expect(Base64URL.decode("Zm8") == Data([0x66, 0x6f]))
        #expect(Base64URL.decode("Zm9") == nil)
    }

    @Test func rejectsForeignCharactersAndImpossibleLengths() {
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("ab/c") == nil)
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("abcde") == nil)
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("abcd\u{e9}") == nil)
    }
}
