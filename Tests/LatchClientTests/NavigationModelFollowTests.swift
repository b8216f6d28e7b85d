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
}
#endif
