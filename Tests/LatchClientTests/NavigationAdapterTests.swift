import DeepLinkRouting
import Foundation
import LatchClient
import Testing

/// Navigation/: the auth state stream drives DeepLinkRouting's navigation with its own rules intact.
@Suite struct NavigationAdapterTests {
    static let parser = DeepLinkParser(configuration: DeepLinkConfiguration(
        appScheme: "myapp", linkBase: URL(string: "https://links.example.com") ?? URL(fileURLWithPath: "/")))
    static let ada = FakeLatchServer(clock: TestClock()).user(email: "ada@example.com")

    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func theFirstChangeDeterminesTheStateAndOpensALinkThatWaitedAtLaunch() throws {
        var state = NavigationState(parser: Self.parser)
        state.open(url: try url("myapp://resetPassword?token=T"))
        #expect(state.root == .launching)
        state.apply(.signedOut)
        #expect(state.root == .signIn)
        #expect(state.path == [.resetPassword(token: "T")])

        var signedIn = NavigationState(parser: Self.parser)
        signedIn.open(url: try url("myapp://home/profile"))
        signedIn.apply(.signedIn(Self.ada))
        #expect(signedIn.root == .home)
        #expect(signedIn.path == [.profile])
    }

    @Test func signingInResumesTheLinkThatWaitedForIt() throws {
        var state = NavigationState(parser: Self.parser)
        state.apply(.signedOut)
        let outcome = state.open(url: try url("myapp://home/items/item/42"))
        #expect(outcome == .deferred(DeepLinkRoute(.itemDetail(id: "42"))))
        state.apply(.signedIn(Self.ada))
        #expect(state.path == [.itemList, .itemDetail(id: "42")])
        #expect(state.pendingRoute == nil)
    }

    static let secondFactor = AuthStateChange.secondFactorRequired(
        ticket: MFATicket(value: "ticket", expiresAt: Date(timeIntervalSince1970: 1_800_000_300)),
        methods: [.totp, .recoveryCode])

    @Test func aSecondFactorHoldsTheLinkThatWaitedAndOneThatArrivesUntilItSignsIn() throws {
        var state = NavigationState(parser: Self.parser)
        state.apply(.signedOut)
        state.open(url: try url("myapp://home/profile"))
        state.apply(Self.secondFactor)
        #expect(state.authState == .awaitingSecondFactor)
        #expect(state.root == .secondFactor)
        #expect(state.pendingRoute == DeepLinkRoute(.profile))
        let outcome = state.open(url: try url("myapp://home/items/item/42"))
        #expect(outcome == .deferred(DeepLinkRoute(.itemDetail(id: "42"))))
        state.apply(Self.secondFactor)  // a new ticket (another try): the screen stays as it is
        #expect(state.root == .secondFactor)
        #expect(state.pendingRoute == DeepLinkRoute(.itemDetail(id: "42")))
        state.apply(.signedIn(Self.ada))
        #expect(state.root == .home)
        #expect(state.path == [.itemList, .itemDetail(id: "42")])
    }

    @Test func signingOutFromTheSecondFactorClearsTheHeldLink() throws {
        var state = NavigationState(parser: Self.parser)
        state.apply(.signedOut)
        state.open(url: try url("myapp://home/profile"))
        state.apply(Self.secondFactor)
        state.apply(.signedOut)
        #expect(state.root == .signIn)
        #expect(state.pendingRoute == nil)
        state.apply(.signedIn(Self.ada))
        #expect(state.path == [])
    }

    @Test func theSecondFactorCanBeTheFirstChangeAndNeverMovesASignedInUser() throws {
        var launching = NavigationState(parser: Self.parser)
        launching.apply(Self.secondFactor)
        #expect(launching.root == .secondFactor)

        var signedIn = NavigationState(parser: Self.parser)
        signedIn.apply(.signedIn(Self.ada))
        signedIn.path = [.profile]
        signedIn.apply(Self.secondFactor)
        #expect(signedIn.root == .home)
        #expect(signedIn.path == [.profile])
    }

    @Test func aRepeatedSignedInLeavesTheStackWhereTheUserIs() {
        var state = NavigationState(parser: Self.parser)
        state.apply(.signedIn(Self.ada))
        state.path = [.itemList, .itemDetail(id: "7")]
        state.apply(.signedIn(Self.ada))  // a refresh or a new address: still signed in
        #expect(state.path == [.itemList, .itemDetail(id: "7")])
        state.apply(.signedOut)
        #expect(state.root == .signIn)
        #expect(state.path.isEmpty)
        state.awaitingConfirmation(email: "ada@example.com")
        state.apply(.signedOut)  // already signed out: "check your mail" stays
        #expect(state.root == .awaitingConfirmation(email: "ada@example.com"))
    }
}
