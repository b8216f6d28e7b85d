import DeepLinkRouting
import Foundation
import Testing

/// Apps log links, routes, outcomes and navigation state; none of their printed forms may contain a token.
@Suite struct RedactionTests {
    /// Distinctive, and made of base64url characters so the parser accepts it as a token.
    static let token = "sEkRiT_q3Zx9aB0cD1eF2gH3iJ4kL5mN6oP7qR8sT9u"

    /// Every way an app might print `value`: `print`/`String(describing:)`, `debugPrint`/`String(reflecting:)`,
    /// string interpolation (as `Logger` and `print("\(x)")` do) and `dump`.
    static func printedForms<T>(_ value: T) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    static func expectNoToken<T>(
        _ value: T, redacted: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for form in printedForms(value) {
            // Case-insensitively: a host is lowercased before it lands in a rejection.
            #expect(!form.lowercased().contains("sekrit"), "\(form)", sourceLocation: sourceLocation)
            if redacted { #expect(form.contains("<redacted>"), "\(form)", sourceLocation: sourceLocation) }
        }
    }

    static let confirm = AppDeepLink.confirmAuth(token: token)
    static let reset = AppDeepLink.resetPassword(token: token)
    static let emailChange = AppDeepLink.confirmEmailChange(token: token)
    static let signIn = AppDeepLink.signIn(token: token)
    static let invite = AppDeepLink.acceptInvite(token: token)

    @Test func tokenLinks() {
        Self.expectNoToken(Self.confirm)
        Self.expectNoToken(Self.reset)
        Self.expectNoToken(Self.emailChange)
        Self.expectNoToken(Self.signIn)
        Self.expectNoToken(Self.invite)
        #expect(String(reflecting: Self.invite) == "AppDeepLink.acceptInvite(token: <redacted>)")
        #expect(String(describing: Self.emailChange) == "confirmEmailChange(token: <redacted>)")
        #expect(String(describing: Self.signIn) == "signIn(token: <redacted>)")
        #expect(String(reflecting: Self.signIn) == "AppDeepLink.signIn(token: <redacted>)")
        #expect(String(describing: Self.confirm) == "confirmAuth(token: <redacted>)")
        #expect(String(reflecting: Self.reset) == "AppDeepLink.resetPassword(token: <redacted>)")
    }

    @Test func linksWithoutATokenStillSayWhereTheyGo() {
        #expect(String(describing: AppDeepLink.itemDetail(id: "42")) == #"itemDetail(id: "42")"#)
        #expect("\(AppDeepLink.home)" == "home")
        var dumped = ""
        dump(AppDeepLink.itemDetail(id: "42"), to: &dumped)
        #expect(dumped.contains(#""42""#))
    }

    @Test func routes() {
        Self.expectNoToken(DeepLinkRoute(Self.confirm))
        Self.expectNoToken(DeepLinkRoute(Self.reset))
        Self.expectNoToken(DeepLinkRoute(Self.signIn))
        #expect(String(describing: DeepLinkRoute(.itemDetail(id: "7"))) == #"DeepLinkRoute(path: [itemList, itemDetail(id: "7")])"#)
    }

    @Test func parseResults() throws {
        for link in [Self.confirm, Self.reset, Self.signIn, Self.invite] {
            for url in [Fixtures.printer.universalURL(for: link), Fixtures.printer.customSchemeURL(for: link)] {
                #expect(url.absoluteString.contains(Self.token), "the printer still puts the token in the link")
                let result = Fixtures.parser.parse(url)
                #expect(result.link == link)
                Self.expectNoToken(result)
            }
        }
    }

    @Test func outcomes() {
        let route = DeepLinkRoute(Self.confirm)
        Self.expectNoToken(DeepLinkOutcome.opened(route))
        Self.expectNoToken(DeepLinkOutcome.deferred(route))
        Self.expectNoToken(DeepLinkOutcome.rejected(.unknownDestination(Self.token)))
    }

    /// Rejections hold text copied from the URL, and a mangled link can put its token anywhere.
    static let rejections: [DeepLinkRejection] = [
        .malformed(token), .unsupportedScheme(token), .unknownHost(token), .unknownDestination(token),
        .misplacedDestination(token), .missingParameter(token), .duplicateParameter(token), .unexpectedParameter(token),
    ]

    @Test(arguments: rejections)
    func everyRejection(rejection: DeepLinkRejection) {
        Self.expectNoToken(rejection)
        Self.expectNoToken(DeepLinkParseResult.rejected(rejection))
    }

    @Test(arguments: [
        "myapp://home/\(token)", "myapp://\(token)", "https://links.example.com/\(token)",
        "https://links.example.com/confirmAuth?\(token)=1", "\(token)://confirmAuth", "https://\(token)/confirmAuth",
        "https://links.example.com/confirmAuth?token=\(token)#\(token)",
    ])
    func rejectionsOfLinksWithATokenOutOfPlace(link: String) throws {
        let result = Fixtures.parser.parse(link)
        let rejection = try #require(result.rejection)
        Self.expectNoToken(rejection, redacted: false)
        Self.expectNoToken(result, redacted: false)
    }

    @Test func rejectionsStillNameTheParsersOwnWords() {
        #expect(DeepLinkRejection.missingParameter("token").description == "missing parameter 'token'")
        #expect(DeepLinkRejection.malformed("fragment").description == "malformed link: fragment")
        #expect(DeepLinkRejection.tooLong(9000).description == "link too long: 9000 characters")
        #expect(String(reflecting: DeepLinkRejection.duplicateParameter("token")) == #"DeepLinkRejection.duplicateParameter("token")"#)
        #expect(DeepLinkRejection.unknownDestination("x").description == "unknown destination <redacted>")
    }

    @Test func navigationState() {
        var signedOut = NavigationState(parser: Fixtures.parser)
        signedOut.authStateDetermined(signedIn: false)
        signedOut.open(url: Fixtures.printer.universalURL(for: Self.reset))
        #expect(signedOut.path == [Self.reset])
        Self.expectNoToken(signedOut)

        var launching = NavigationState(parser: Fixtures.parser)
        launching.open(url: Fixtures.printer.customSchemeURL(for: Self.confirm))
        #expect(launching.pendingRoute == DeepLinkRoute(Self.confirm))
        Self.expectNoToken(launching)

        var signingIn = NavigationState(parser: Fixtures.parser)
        signingIn.authStateDetermined(signedIn: false)
        signingIn.open(url: Fixtures.printer.universalURL(for: Self.signIn))
        #expect(signingIn.path == [Self.signIn])
        Self.expectNoToken(signingIn)
    }

    @Test func equalityAndCodableStillSeeTheToken() throws {
        let data = try JSONEncoder().encode(Self.confirm)
        #expect(String(decoding: data, as: UTF8.self).contains(Self.token))
        #expect(try JSONDecoder().decode(AppDeepLink.self, from: data) == Self.confirm)
        #expect(Self.confirm != .confirmAuth(token: "other"))
        #expect(DeepLinkRejection.unknownDestination("a") != .unknownDestination("b"))
    }

    #if canImport(Observation)
    @MainActor @Test func navigationModel() {
        let model = NavigationModel(parser: Fixtures.parser)
        model.authStateDetermined(signedIn: false)
        model.open(url: Fixtures.printer.universalURL(for: Self.confirm))
        #expect(model.path == [Self.confirm])
        var dumped = ""
        dump(model, to: &dumped)
        for form in [String(describing: model), String(reflecting: model), "\(model)", dumped] {
            #expect(!form.contains(Self.token), "\(form)")
        }
        #expect(dumped.contains("<redacted>"), "dump walks into the state: \(dumped)")
    }
    #endif
}
