import DeepLinkRouting
import Foundation
import Testing

@Suite struct DeepLinkParserTests {
    let parser = Fixtures.parser

    @Test(arguments: ["myapp://confirmAuth?token=T", "https://links.example.com/confirmAuth?token=T"])
    func readsTheTokenOutOfConfirmLinks(link: String) {
        #expect(parser.parse(link) == .recognized(DeepLinkRoute(.confirmAuth(token: "T"))))
        #expect(parser.parse(link).link?.token == "T")
    }

    @Test func readsResetLinksFromURLs() {
        let result = parser.parse(Fixtures.url("https://links.example.com/resetPassword?token=\(Fixtures.token)"))
        guard case .recognized(let route) = result, case .resetPassword(let token) = route.link else {
            Issue.record("not a reset link: \(result)")
            return
        }
        #expect(token == Fixtures.token)
        #expect(route.requiresAuth == false)
    }

    /// The sign-in mail's link. Its name is matched case-insensitively: in the custom scheme it is the host,
    /// which some platforms lowercase.
    @Test(arguments: ["myapp://signIn?token=T", "https://links.example.com/signIn?token=T", "myapp://signin?token=T",
                      "MYAPP://SIGNIN?token=T", "https://LINKS.example.com/SignIn?token=T",
                      "https://links.old-example.com/signIn?token=T"])
    func readsTheTokenOutOfSignInLinks(link: String) {
        #expect(parser.parse(link) == .recognized(DeepLinkRoute(.signIn(token: "T"))))
        #expect(parser.parse(link).link?.token == "T")
        #expect(parser.parse(link).route?.requiresAuth == false)
    }

    /// An operator's invitation: a token link like the others, opened signed out.
    @Test(arguments: ["myapp://acceptInvite?token=T", "https://links.example.com/acceptInvite?token=T",
                      "myapp://acceptinvite?token=T", "https://links.old-example.com/AcceptInvite?token=T"])
    func readsTheTokenOutOfInvitationLinks(link: String) {
        #expect(parser.parse(link) == .recognized(DeepLinkRoute(.acceptInvite(token: "T"))))
        #expect(parser.parse(link).route?.requiresAuth == false)
    }

    @Test func anInvitationRoundTripsItsTokenExactly() {
        let token = "aB-_09" + Fixtures.token
        for url in [Fixtures.printer.universalURL(for: .acceptInvite(token: token)),
                    Fixtures.printer.customSchemeURL(for: .acceptInvite(token: token))] {
            #expect(parser.parse(url).link == .acceptInvite(token: token))
        }
    }

    @Test func keepsTheCaseOfSignInTokens() {
        let result = parser.parse(Fixtures.url("myapp://signin?token=\(Fixtures.token)"))
        #expect(result.link == .signIn(token: Fixtures.token), "only the destination's name folds case")
    }

    @Test(arguments: ["myapp://home/profile", "https://links.example.com/home/profile", "myapp:home/profile",
                      "myapp:///home/profile", "MYAPP://HOME/Profile", "https://LINKS.example.com:443/home/profile/"])
    func foldsTheHostIntoThePathAndWalksIt(link: String) {
        #expect(parser.parse(link).route?.path == [.profile])
        #expect(parser.parse(link).link == .profile)
    }

    @Test func homeAloneIsTheRoot() {
        #expect(parser.parse("myapp://home").route?.path == [])
        #expect(parser.parse("myapp://home").link == .home)
    }

    @Test(arguments: ["myapp://home/items/item/42", "myapp://home/item/42", "myapp://item/42"])
    func nestedLinksBuildTheWholeHierarchy(link: String) {
        #expect(parser.parse(link).route?.path == [.itemList, .itemDetail(id: "42")])
    }

    @Test func pushesTheRemainingSegmentsInOrder() {
        let path = parser.parse("https://links.example.com/home/items/profile/item/a%2Fb").route?.path
        #expect(path == [.itemList, .profile, .itemList, .itemDetail(id: "a/b")])
    }

    @Test func readsIDsThatSpellDestinationNames() {
        #expect(parser.parse("myapp://home/items/item/profile").link == .itemDetail(id: "profile"))
    }

    @Test func acceptsAdditionalHostsAndDevelopmentPorts() {
        #expect(parser.parse("https://links.old-example.com/home").link == .home)
        #expect(parser.parse("https://staging.example.com:8443/home").link == .home)
        let development = DeepLinkParser(configuration: Fixtures.development)
        #expect(development.parse("http://127.0.0.1:8080/confirmAuth?token=T").link == .confirmAuth(token: "T"))
        #expect(development.parse("http://127.0.0.1:9090/confirmAuth?token=T") == .rejected(.unknownHost("127.0.0.1:9090")))
    }

    @Test func honoursALinkBasePathPrefix() {
        let prefixed = DeepLinkParser(configuration: DeepLinkConfiguration(
            appScheme: "myapp", linkBase: Fixtures.url("https://example.com/links")))
        #expect(prefixed.parse("https://example.com/links/home/profile").link == .profile)
        #expect(prefixed.parse("https://example.com/home/profile") == .rejected(.unknownDestination("home")))
    }

    @Test(arguments: [
        ("myapp://confirmAuth", DeepLinkRejection.missingParameter("token")),
        ("myapp://confirmAuth?token=", .missingParameter("token")),
        ("myapp://confirmAuth?token", .missingParameter("token")),
        ("https://links.example.com/resetPassword?tok=T", .unexpectedParameter("tok")),
        ("myapp://confirmAuth?token=A&token=B", .duplicateParameter("token")),
        ("myapp://confirmAuth?token=A&token=A", .duplicateParameter("token")),
        ("myapp://confirmEmailChange", .missingParameter("token")),
        ("https://links.example.com/confirmEmailChange?token=A&token=B", .duplicateParameter("token")),
        ("myapp://home/confirmEmailChange?token=T", .misplacedDestination("confirmEmailChange")),
        ("https://evil.example.com/confirmEmailChange?token=T", .unknownHost("evil.example.com")),
        ("myapp://home/profile?token=T", .unexpectedParameter("token")),
        ("myapp://home/profile?utm_source=mail", .unexpectedParameter("utm_source")),
        ("myapp://home/item", .missingParameter("id")),
        ("myapp://home/settings", .unknownDestination("settings")),
        ("myapp://home/home", .misplacedDestination("home")),
        ("myapp://home/confirmAuth?token=T", .misplacedDestination("confirmAuth")),
        ("myapp://confirmAuth/profile?token=T", .misplacedDestination("confirmAuth")),
        ("myapp://signIn", .missingParameter("token")),
        ("https://links.example.com/signIn?token=", .missingParameter("token")),
        ("myapp://signIn?token=A&token=B", .duplicateParameter("token")),
        ("myapp://signIn?token=T&email=a", .unexpectedParameter("email")),
        ("myapp://home/signIn?token=T", .misplacedDestination("signIn")),
        ("myapp://signIn/profile?token=T", .misplacedDestination("signIn")),
        ("https://evil.example.com/signIn?token=T", .unknownHost("evil.example.com")),
        ("myapp://acceptInvite", .missingParameter("token")),
        ("https://links.example.com/acceptInvite?token=", .missingParameter("token")),
        ("myapp://acceptInvite?token=A&token=B", .duplicateParameter("token")),
        ("myapp://acceptInvite?token=T&code=1", .unexpectedParameter("code")),
        ("myapp://home/acceptInvite?token=T", .misplacedDestination("acceptInvite")),
        ("myapp://acceptInvite/profile?token=T", .misplacedDestination("acceptInvite")),
        ("https://evil.example.com/acceptInvite?token=T", .unknownHost("evil.example.com")),
        ("myapp://", .missingDestination),
        ("https://links.example.com/", .missingDestination),
        ("https://evil.example.com/confirmAuth?token=T", .unknownHost("evil.example.com")),
        ("https://links.example.com:8443/home", .unknownHost("links.example.com:8443")),
        ("http://links.example.com/home", .unsupportedScheme("http")),
        ("javascript:alert(document.cookie)", .unsupportedScheme("javascript")),
        ("otherapp://confirmAuth?token=T", .unsupportedScheme("otherapp")),
        ("https://links.example.com/confirmAuth#token=T", .malformed("fragment")),
        ("https://user:pw@links.example.com/home", .malformed("credentials")),
        ("myapp://item/%zz", .malformed("bad percent-encoding")),
        ("myapp://item/%FF", .malformed("bad percent-encoding")),
        ("myapp://home/pro file", .malformed("whitespace, control or non-ASCII character")),
        ("https://lïnks.example.com/home", .malformed("whitespace, control or non-ASCII character")),
        ("", .malformed("empty")),
        ("   ", .malformed("empty")),
        ("confirmAuth?token=T", .malformed("no scheme")),
    ])
    func refusesWhatItDoesNotKnowAndSaysWhy(link: String, reason: DeepLinkRejection) {
        #expect(parser.parse(link) == .rejected(reason))
    }

    @Test func ignoresSurroundingWhitespaceFromCopyAndPaste() {
        #expect(parser.parse("  myapp://home/profile\n").link == .profile)
    }

    @Test func refusesTenKilobyteLinksWithoutReadingThem() {
        let huge = "https://links.example.com/confirmAuth?token=" + String(repeating: "A", count: 10 * 1024)
        #expect(parser.parse(huge) == .rejected(.tooLong(huge.utf8.count)))
        let longPath = "myapp://home" + String(repeating: "/profile", count: 1300)
        #expect(parser.parse(longPath).rejection?.code == "too_long")
    }

    @Test func clipsURLTextInReasonsSoLogsStayShort() throws {
        let segment = String(repeating: "x", count: 500)
        let rejection = try #require(parser.parse("myapp://home/\(segment)").rejection)
        #expect(rejection.description.count < 120)
        #expect(rejection.code == "unknown_destination")
    }

    @Test func survivesHostileInputs() {
        let inputs = ["%", "%%", "::::", "myapp:", "myapp:?token=T", "myapp://?&&=&", "https://", "https:///home",
                      "myapp://confirmAuth?=T", "myapp://\u{0}", "myapp://home/\u{202E}", "myapp://[::1]/home",
                      "https://[::1]:8080/home", "data:text/html,<script>", "file:///etc/passwd", "myapp://home:80/x"]
        for input in inputs {
            #expect(parser.parse(input).rejection != nil, "\(input)")
        }
    }
}
