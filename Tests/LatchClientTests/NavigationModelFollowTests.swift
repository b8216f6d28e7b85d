#if canImport(Observation)
import DeepLinkRouting
import Foundation
import LatchClient
import TestKit
import Testing

/// `NavigationModel.follow(_:)`: the model on the main actor, driven by a client's auth state end to end.
@MainActor
@Suite struct NavigationModelFollowTests {
    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func theModelFollowsTheClientFromLaunchThroughConfirmationToARevokedSession() async throws {
        let harness = Harness(signedIn: false)
        let model = NavigationModel(parser: NavigationAdapterTests.parser)
        let following = Task { await model.follow(harness.client) }
        defer { following.cancel() }
        #expect(await eventually { model.authState == .loggedOut })

        model.open(url: try url("myapp://home/profile"))  // waits for sign-in
        let confirm = try url("https://links.example.com/confirmAuth?token=confirm-token")
        model.open(url: confirm)
        #expect(model.path == [.confirmAuth(token: "confirm-token")])
        _ = try await harness.client.handle(try #require(NavigationAdapterTests.parser.parse(confirm).route))
        #expect(await eventually { model.authState == .loggedIn })
        #expect(model.root == .home)
        #expect(model.path == [.profile], "the link that waited opens after the confirmation signed in")

        harness.server.state.withLock { $0.revoked = true }
        _ = try? await harness.client.me()
        #expect(await eventually { model.authState == .loggedOut })
        #expect(model.path.isEmpty)
    }

    @Test func theModelWaitsOnTheSecondFactorWithTheLinksHeldAndResumesThemAfterIt() async throws {
        let harness = Harness(signedIn: false)
        harness.server.enableSecondFactor()
        let model = NavigationModel(parser: NavigationAdapterTests.parser)
        let following = Task { await model.follow(harness.client) }
        defer { following.cancel() }
        #expect(await eventually { model.authState == .loggedOut })

        model.open(url: try url("myapp://home/profile"))
        let result = try await harness.client.signIn(email: "ada@example.com", password: FakeLatchServer.password)
        guard case .mfaRequired(let ticket, _) = result else {
            Issue.record("expected mfaRequired, got \(result)")
            return
        }
        #expect(await eventually { model.root == .secondFactor })
        #expect(model.open(url: try url("myapp://home/items")) == .deferred(DeepLinkRoute(.itemList)))
        #expect(model.path.isEmpty)

        try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        #expect(await eventually { model.authState == .loggedIn })
        #expect(model.path == [.itemList], "the link held during the second factor opens")
    }

    @Test func givingUpTheSecondFactorBringsBackSignInWithoutTheHeldLink() async throws {
        let harness = Harness(signedIn: false)
        harness.server.enableSecondFactor()
        let model = NavigationModel(parser: NavigationAdapterTests.parser)
        let following = Task { await model.follow(harness.client) }
        defer { following.cancel() }
        #expect(await eventually { model.authState == .loggedOut })

        model.open(url: try url("myapp://home/profile"))
        try await harness.client.signIn(email: "ada@example.com", password: FakeLatchServer.password)
        #expect(await eventually { model.authState == .awaitingSecondFactor })
        try await harness.client.signOut()
        #expect(await eventually { model.authState == .loggedOut })
        #expect(model.root == .signIn)
        #expect(model.pendingRoute == nil)
    }
}
#endif
