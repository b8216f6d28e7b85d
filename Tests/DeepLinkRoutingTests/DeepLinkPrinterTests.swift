import DeepLinkRouting
import Foundation
import Testing

@Suite struct DeepLinkPrinterTests {
    let printer = Fixtures.printer

    @Test(arguments: [
        (AppDeepLink.confirmAuth(token: "T"), "https://links.example.com/confirmAuth?token=T", "myapp://confirmAuth?token=T"),
        (.resetPassword(token: "T"), "https://links.example.com/resetPassword?token=T", "myapp://resetPassword?token=T"),
        (.confirmEmailChange(token: "T"), "https://links.example.com/confirmEmailChange?token=T",
         "myapp://confirmEmailChange?token=T"),
        (.signIn(token: "T"), "https://links.example.com/signIn?token=T", "myapp://signIn?token=T"),
        (.acceptInvite(token: "T"), "https://links.example.com/acceptInvite?token=T", "myapp://acceptInvite?token=T"),
        (.home, "https://links.example.com/home", "myapp://home"),
        (.profile, "https://links.example.com/home/profile", "myapp://home/profile"),
        (.itemList, "https://links.example.com/home/items", "myapp://home/items"),
        (.itemDetail(id: "42"), "https://links.example.com/home/items/item/42", "myapp://home/items/item/42"),
    ])
    func printsBothForms(link: AppDeepLink, universal: String, custom: String) {
        #expect(printer.universalURL(for: link).absoluteString == universal)
        #expect(printer.customSchemeURL(for: link).absoluteString == custom)
    }

    @Test func encodesEveryReservedCharacterInTokens() {
        let url = printer.universalURL(for: .confirmAuth(token: "a+b&c=d#e%f g/h?i.j~k_l-m"))
        #expect(url.absoluteString == "https://links.example.com/confirmAuth?token=a%2Bb%26c%3Dd%23e%25f%20g%2Fh%3Fi.j~k_l-m")
    }

    @Test func encodesUnicodeAsUTF8() {
        let url = printer.customSchemeURL(for: .itemDetail(id: "é👍"))
        #expect(url.absoluteString == "myapp://home/items/item/%C3%A9%F0%9F%91%8D")
    }

    @Test func encodesDotSegmentsInIDsSoTheyCannotBeResolvedAway() {
        let url = printer.universalURL(for: .itemDetail(id: ".."))
        #expect(url.absoluteString == "https://links.example.com/home/items/item/%2E%2E")
    }

    @Test func keepsPortAndPathPrefixOfTheLinkBase() {
        let development = DeepLinkPrinter(configuration: Fixtures.development)
        #expect(development.universalURL(for: .confirmAuth(token: "T")).absoluteString
            == "http://127.0.0.1:8080/confirmAuth?token=T")
        let prefixed = DeepLinkPrinter(configuration: DeepLinkConfiguration(
            appScheme: "myapp", linkBase: Fixtures.url("https://example.com/links/")))
        #expect(prefixed.universalURL(for: .profile).absoluteString == "https://example.com/links/home/profile")
    }

    @Test func printsWholeWalks() throws {
        let route = try #require(DeepLinkRoute(walk: [.profile, .itemDetail(id: "7"), .profile]))
        #expect(printer.customSchemeURL(for: route).absoluteString == "myapp://home/profile/items/item/7/profile")
    }
}
