import Foundation
import LatchClient
import Testing

/// `authStateChanges()`: the state at subscription, then one element per change, and none for a refresh.
@Suite struct AuthStateChangeTests {
    @Test func aStoredSessionIsSignedInAtOnceWithoutARequest() async {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedIn(harness.server.user(email: "ada@example.com")))
        #expect(await harness.client.currentUser?.email == "ada@example.com")
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func signInRefreshUpdateAndSignOutInOrder() async throws {
        let harness = Harness(signedIn: false)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let result = try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
        let user = try #require(result.user)
        #expect(await changes.next() == .signedIn(user))

        try await harness.client.refreshSession()  // same user: nothing to report
        harness.server.state.withLock { $0.email = "ada@new.example.com" }
        let updated = try await harness.client.me()
        #expect(updated.email == "ada@new.example.com")
        #expect(await changes.next() == .signedIn(updated), "the refresh reported nothing; the new address is reported")
        #expect(harness.store.loadSession()?.user == updated)

        try await harness.client.signOut()
        #expect(await changes.next() == .signedOut)
    }

    @Test func everySubscriberSeesEveryChange() async throws {
        let harness = Harness(signedIn: false)
        var first = await harness.client.authStateChanges().makeAsyncIterator()
        var second = await harness.client.authStateChanges().makeAsyncIterator()
        try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
        for _ in 0..<2 {
            #expect(await first.next() == .signedOut)
            #expect(await first.next()?.user != nil)
            swap(&first, &second)
        }
    }

    @Test func aSessionTheServerEndedIsReportedSignedOut() async throws {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user != nil)
        harness.server.state.withLock { $0.revoked = true }  // e.g. a global sign-out on another device

        await #expect(throws: LatchError.invalidSession) { try await harness.client.me() }
        #expect(await changes.next() == .signedOut)
        #expect(harness.server.count("/v1/token/refresh") == 1, "a 401 is checked with one refresh first")
    }

    @Test func aResetOfThisUsersPasswordSignsOutAndAnotherUsersDoesNot() async throws {
        let harness = Harness()
        let other = FakeLatchServer.json(200, ["status": "password_reset", "user": [
            "id": UUID().uuidString, "email": "bob@example.com", "confirmed_at": NSNull(),
            "created_at": "2024-01-01T00:00:00Z",
        ] as [String: Any]])
        harness.server.state.withLock { $0.scripted["/v1/password/reset"] = other }
        let bob = try await harness.client.resetPassword(token: "reset-token", newPassword: "a new passphrase")
        #expect(bob.email == "bob@example.com" && !bob.isConfirmed)
        #expect(await harness.client.currentUser?.email == "ada@example.com")

        let ada = FakeLatchServer.json(200, ["status": "password_reset", "user": [
            "id": FakeLatchServer.userID.uuidString, "email": "ada@example.com", "confirmed_at": "2024-01-01T00:00:00Z",
            "created_at": "2024-01-01T00:00:00Z",
        ]])
        harness.server.state.withLock { $0.scripted["/v1/password/reset"] = ada }
        try await harness.client.resetPassword(token: "reset-token", newPassword: "a new passphrase")
        #expect(await harness.client.currentUser == nil, "the server ended every session of the user")
        #expect(harness.store.loadSession() == nil)
        #expect(harness.server.requests("/v1/password/reset").last?.fields as? [String: String]
                == ["token": "reset-token", "password": "a new passphrase"])
    }
}
