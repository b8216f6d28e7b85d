import DeepLinkRouting
import Foundation
import TestKit
import Testing

/// parse(print(x)) == x over generated links and walks, in both URL forms, from fixed seeds.
@Suite struct RoundTripPropertyTests {
    /// Characters that break naive encoders: delimiters, `%`, `+`, spaces, controls, multi-byte and combining scalars.
    static let alphabet: [Character] = Array("aZ09-_.~+&=#%?/ :;@!$'()*,[]\"<>\\^`{|}\t\n\u{0}éß中👍\u{301}\u{200B}")

    static func randomString(minLength: Int, maxLength: Int, using rng: inout SeededGenerator) -> String {
        let length = Int.random(in: minLength...maxLength, using: &rng)
        return String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
    }

    static func randomScreen(using rng: inout SeededGenerator) -> AppDeepLink {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: .profile
        case 1: .itemList
        default: .itemDetail(id: randomString(minLength: 1, maxLength: 16, using: &rng))
        }
    }

    static func randomLink(using rng: inout SeededGenerator) -> AppDeepLink {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: .confirmAuth(token: randomString(minLength: 1, maxLength: 200, using: &rng))
        case 1: .resetPassword(token: randomString(minLength: 1, maxLength: 200, using: &rng))
        case 2: .confirmEmailChange(token: randomString(minLength: 1, maxLength: 200, using: &rng))
        case 3: .signIn(token: randomString(minLength: 1, maxLength: 200, using: &rng))
        case 4: .acceptInvite(token: randomString(minLength: 1, maxLength: 200, using: &rng))
        case 5: .home
        default: randomScreen(using: &rng)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 0xDEAD_BEEF])
    func everyLinkRoundTripsInBothForms(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for configuration in [Fixtures.production, Fixtures.development] {
            let printer = DeepLinkPrinter(configuration: configuration)
            let parser = DeepLinkParser(configuration: configuration)
            for _ in 0..<250 {
                let link = Self.randomLink(using: &rng)
                let route = DeepLinkRoute(link)
                #expect(parser.parse(printer.universalURL(for: link)) == .recognized(route), "\(link)")
                #expect(parser.parse(printer.customSchemeURL(for: link)) == .recognized(route), "\(link)")
                #expect(parser.parse(printer.universalURL(for: link)).link == link)
            }
        }
    }

    @Test(arguments: [UInt64(7), 8, 9])
    func longWalksRoundTripInBothForms(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let printer = Fixtures.printer
        let parser = Fixtures.parser
        for _ in 0..<100 {
            let screens = (0..<Int.random(in: 0...32, using: &rng)).map { _ in Self.randomScreen(using: &rng) }
            let route = try #require(DeepLinkRoute(walk: screens))
            let universal = printer.universalURL(for: route)
            let custom = printer.customSchemeURL(for: route)
            #expect(parser.parse(universal) == .recognized(route), "\(universal)")
            #expect(parser.parse(custom) == .recognized(route), "\(custom)")
            // Going through the string form (as a mail body or a pasteboard would) changes nothing either.
            #expect(parser.parse(universal.absoluteString) == .recognized(route))
        }
    }

    @Test(arguments: [UInt64(11), 12])
    func bothFormsAlwaysMeanTheSame(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let link = Self.randomLink(using: &rng)
            let universal = Fixtures.parser.parse(Fixtures.printer.universalURL(for: link))
            let custom = Fixtures.parser.parse(Fixtures.printer.customSchemeURL(for: link))
            #expect(universal == custom)
        }
    }

    @Test func printedLinksUseOnlyUnreservedCharactersAndDelimiters() {
        var rng = SeededGenerator(seed: 42)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~%/:?=&")
        for _ in 0..<200 {
            let text = Fixtures.printer.universalURL(for: Self.randomLink(using: &rng)).absoluteString
            #expect(text.allSatisfy { allowed.contains($0) }, "\(text)")
        }
    }

    @Test(arguments: [UInt64(21), 22])
    func randomGarbageNeverCrashes(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let prefixes = ["", "myapp://", "https://links.example.com/", "myapp://confirmAuth?", "https://links.example.com/home/"]
        var rejected = 0
        for _ in 0..<500 {
            let prefix = prefixes.randomElement(using: &rng) ?? ""
            let input = prefix + Self.randomString(minLength: 0, maxLength: 60, using: &rng)
            if Fixtures.parser.parse(input).rejection != nil { rejected += 1 }
        }
        // Random text is almost never a link; the point is that every input got an answer.
        #expect(rejected > 400)
    }
}
