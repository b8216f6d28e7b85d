import Foundation
import LatchClient
import TestKit
import Testing

/// One refresh for all concurrent callers (LatchClient+Refresh.swift). The fake server revokes the family when
/// a spent refresh token comes back, so a client that refreshed twice with one token fails these tests.
@Suite struct RefreshCoalescingTests {
    @Test func twentyCallersWithAnAccessTokenExpiringShareOneRefresh() async throws {
        let harness = Harness(accessLifetime: 30)  // within the 60 s leeway: refresh before the calls
        harness.server.refreshGate.close()
        async let results = harness.concurrently(20) { client async throws(LatchError) in try await client.me() }
        // Hold the one refresh until the others had every chance to start their own.
        #expect(await eventually { harness.server.count("/v1/token/refresh") == 1 })
        try await Task.sleep(for: .milliseconds(100))
        harness.server.refreshGate.open()

        let users = await results
        #expect(users.allSatisfy { (try? $0.get()) != nil }, "\(users.compactMap(\.failure))")
        #expect(harness.server.count("/v1/token/refresh") == 1)
        let bearers = Set(harness.server.requests("/v1/me").map { $0.headers["Authorization"] })
        #expect(bearers == ["Bearer access-2"], "every call waited for the new token")
        #expect(harness.store.loadSession()?.refreshToken == "refresh-2")
    }

    @Test func twentyCallersRefusedWithA401ShareOneRefresh() async throws {
        let harness = Harness()  // valid by the client's clock, expired at the server
        harness.server.state.withLock { $0.accessExpired = true }
        harness.server.refusalGate.close()
        async let results = harness.concurrently(20) { client async throws(LatchError) in try await client.me() }
        // All twenty carry the expired token and are refused together.
        #expect(await eventually { harness.server.refusalGate.waitingCount == 20 })
        harness.server.refusalGate.open()

        let users = await results
        #expect(users.allSatisfy { (try? $0.get()) != nil }, "\(users.compactMap(\.failure))")
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(harness.server.count("/v1/me") == 40, "each call: refused once, then retried with the new token")
    }

    /// An operator revoked the key the access token was signed with: the server answers `invalid_token`, and one
    /// refresh (a token signed with the new key) mends it without signing anyone out.
    @Test func callsRefusedForARevokedSigningKeyShareOneRefreshAndStaySignedIn() async throws {
        let harness = Harness()
        harness.server.state.withLock { $0.signingKeyRevoked = true }
        let results = await harness.concurrently(5) { client async throws(LatchError) in try await client.me() }
        #expect(results.allSatisfy { (try? $0.get()) != nil }, "\(results.compactMap(\.failure))")
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(harness.store.loadSession()?.refreshToken == "refresh-2")
        #expect(await harness.client.currentUser != nil)
    }

    @Test func aRefusalArrivingAfterTheRefreshEndedRetriesWithTheNewTokenInsteadOfRefreshing() async throws {
        let harness = Harness()
        harness.server.state.withLock { $0.accessExpired = true }
        harness.server.refusalGate.close()
        async let first = harness.client.me()
        async let second = harness.client.me()
        #expect(await eventually { harness.server.refusalGate.waitingCount == 2 })

        harness.server.refusalGate.release(1)
        #expect(await eventually {
            harness.server.requests("/v1/me").contains { $0.headers["Authorization"] == "Bearer access-2" }
        })
        // The refresh is over; the other call's 401 (its token is now two rotations old) arrives only now.
        harness.server.refusalGate.open()

        _ = try await (first, second)
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(await harness.client.currentUser != nil)
    }

    @Test(arguments: [
        (401, "refresh_token_reused", LatchError.refreshTokenReused), (401, "invalid_session", .invalidSession),
        (401, "session_expired", .sessionExpired), (403, "user_disabled", .userDisabled),
    ])
    func aRefreshRefusalEndsTheSessionForEveryWaiter(status: Int, code: String, expected: LatchError) async throws {
        let harness = Harness(accessLifetime: 10, deviceToken: "device-1")
        harness.server.state.withLock { $0.scripted["/v1/token/refresh"] = FakeLatchServer.error(status, code) }
        let changes = await harness.client.authStateChanges()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next()?.user != nil)

        let results = await harness.concurrently(5) { client async throws(LatchError) in try await client.me() }
        let errors = results.compactMap(\.failure)
        #expect(errors.count == 5)
        #expect(errors.contains(expected), "\(errors)")
        #expect(errors.allSatisfy { $0 == expected || $0 == .notSignedIn }, "\(errors)")
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(harness.server.count("/v1/me") == 0)
        #expect(await iterator.next() == .signedOut)
        #expect(harness.store.loadSession() == nil)
        #expect(harness.store.loadDeviceToken() == "device-1", "the device stays trusted")
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.me() }
    }

    @Test func aRefreshWithoutAnAnswerKeepsTheSessionAndTheNextCallTriesAgain() async throws {
        let harness = Harness(accessLifetime: 10)
        harness.server.state.withLock {
            $0.scripted["/v1/token/refresh"] = FakeLatchServer.error(503, "service_unavailable", retryAfter: 5)
        }
        await #expect(throws: LatchError.serviceUnavailable(retryAfter: 5)) { try await harness.client.me() }
        #expect(harness.store.loadSession()?.refreshToken == "refresh-1")
        #expect(await harness.client.currentUser != nil)

        harness.server.state.withLock { $0.scripted = [:] }
        _ = try await harness.client.me()
        #expect(harness.server.count("/v1/token/refresh") == 2)
        #expect(harness.store.loadSession()?.refreshToken == "refresh-2")
    }

    @Test func aRefreshAnsweredAfterANewSignInDoesNotReplaceIt() async throws {
        let harness = Harness(accessLifetime: 10)
        harness.server.refreshGate.close()
        let stale = Task { () async throws(LatchError) -> User in try await harness.client.me() }
        #expect(await eventually { harness.server.count("/v1/token/refresh") == 1 })
        try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
        let signedIn = try #require(harness.store.loadSession())
        harness.server.refreshGate.open()

        #expect(await stale.result.failure as? LatchError == .notSignedIn,
                "the call belonged to the session that was replaced")
        #expect(harness.store.loadSession() == signedIn, "the old session's refresh answer is dropped")
        #expect(try await harness.client.accessToken() == signedIn.accessToken)
    }

    @Test func refreshSessionJoinsARefreshInFlight() async throws {
        let harness = Harness(accessLifetime: 10)
        harness.server.refreshGate.close()
        async let call = harness.client.me()
        #expect(await eventually { harness.server.count("/v1/token/refresh") == 1 })
        async let forced = harness.client.refreshSession()
        try await Task.sleep(for: .milliseconds(50))
        harness.server.refreshGate.open()
        _ = try await (call, forced)
        #expect(harness.server.count("/v1/token/refresh") == 1)

        try await harness.client.refreshSession()
        #expect(harness.server.count("/v1/token/refresh") == 2, "outside a refresh, it refreshes")
        #expect(harness.store.loadSession()?.refreshToken == "refresh-3")
    }
}
