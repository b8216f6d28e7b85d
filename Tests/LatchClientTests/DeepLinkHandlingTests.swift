import DeepLinkRouting
import Foundation
import LatchClient
import Testing

/// `LatchClient.handle(_:)` (LatchClient+DeepLinks.swift): what each route the app is opened with asks of it.
@Suite struct DeepLinkHandlingTests {
    static let parser = DeepLinkParser(configuration: DeepLinkConfiguration(
        appScheme: "myapp", linkBase: URL(string: "https://links.example.com") ?? URL(fileURLWithPath: "/")))

    func route(_ link: String) throws -> DeepLinkRoute {
        try #require(Self.parser.parse(link).route)
    }

    @Test func aConfirmLinkConfirmsAndSignsIn() async throws {
        let harness = Harness(signedIn: false)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let link = try route("https://links.example.com/confirmAuth?token=confirm-token")
        let outcome = try await harness.client.handle(link)
        let user = harness.server.user(email: "ada@example.com")
        #expect(outcome == .signedIn(user))
        #expect(await changes.next() == .signedIn(user))
        #expect(harness.server.requests("/v1/confirm").map { $0.fields as? [String: String] }
                == [["token": "confirm-token"]])
        #expect(harness.store.loadSession()?.user == user)
    }

    @Test func aRefusedConfirmLinkLeavesTheUserSignedOut() async throws {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.invalidToken) {
            try await harness.client.handle(route("myapp://confirmAuth?token=not-the-token"))
        }
        #expect(await harness.client.currentUser == nil)
    }

    @Test func aChangeOfAddressLinkConfirmsItAndTheSignedInUserFollows() async throws {
        let harness = Harness()
        let outcome = try await harness.client.handle(
            route("https://links.example.com/confirmEmailChange?token=change-token"))
        let user = harness.server.user(email: "ada.new@example.com")
        #expect(outcome == .emailChanged(user))
        #expect(await harness.client.currentUser == user)
        #expect(String(describing: outcome) == "emailChanged(ada.new@example.com)")
    }

    @Test func aResetLinkHandsItsTokenBackWithoutARequest() async throws {
        let harness = Harness(signedIn: false)
        let link = try route("https://links.example.com/resetPassword?token=reset-token")
        let outcome = try await harness.client.handle(link)
        #expect(outcome == .resetPassword(token: "reset-token"))
        #expect(!String(describing: outcome).contains("reset-token"), "the token is redacted when printed")
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func anInvitationLinkHandsItsTokenBackForThePasswordScreen() async throws {
        let harness = Harness(signedIn: false)
        let outcome = try await harness.client.handle(try route("https://links.example.com/acceptInvite?token=invite-token"))
        #expect(outcome == .acceptInvite(token: "invite-token"))
        #expect(String(describing: outcome) == "acceptInvite(token: <redacted>)")
        #expect(harness.server.allRequests.isEmpty, "nothing is redeemed before the password is chosen")
    }

    @Test func aSignInLinkCompletesTheSignInByMailAskedForOnThisDevice() async throws {
        let harness = Harness(signedIn: false)
        let link = try route("myapp://signIn?token=signin-token-1")
        await #expect(throws: LatchError.noPendingEmailSignIn, "not asked for here") {
            try await harness.client.handle(link)
        }

        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let outcome = try await harness.client.handle(link)
        #expect(outcome == .signedIn(harness.server.user(email: "ada@example.com")))
        #expect(await harness.client.currentUser?.email == "ada@example.com")
        #expect(String(describing: outcome) == "signedIn(ada@example.com)")
    }

    @Test(arguments: ["myapp://home", "myapp://home/profile", "https://links.example.com/home/items/item/7"])
    func otherLinksNeedNothingFromTheClient(link: String) async throws {
        let harness = Harness()
        #expect(try await harness.client.handle(route(link)) == .notAnAuthLink)
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func aSessionPrintsWithoutItsTokens() {
        let session = FakeLatchServer(clock: TestClock()).session(7)
        var dumped = ""
        dump(session, to: &dumped)
        for text in [String(describing: session), String(reflecting: session), dumped] {
            #expect(!text.contains("access-7") && !text.contains("refresh-7"), "\(text)")
            #expect(text.contains("ada@example.com"))
        }
    }
}
