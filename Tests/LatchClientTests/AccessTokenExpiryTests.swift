import Foundation
import LatchClient
import Testing

/// When the access token is refreshed ahead of a call: once it expires within the leeway (60 s here) by the
/// client's clock; never while it has longer.
@Suite struct AccessTokenExpiryTests {
    @Test func aTokenWithMoreThanTheLeewayLeftIsUsedAsIs() async throws {
        let harness = Harness(accessLifetime: 61)
        _ = try await harness.client.me()
        #expect(try await harness.client.accessToken() == "access-1")
        #expect(harness.server.count("/v1/token/refresh") == 0)
    }

    @Test func aTokenThatExpiresWithinTheLeewayIsRefreshedBeforeTheCall() async throws {
        let harness = Harness(accessLifetime: 61)
        harness.clock.advance(by: 2)
        _ = try await harness.client.me()
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(harness.server.requests("/v1/me").map { $0.headers["Authorization"] } == ["Bearer access-2"],
                "no call went out with the old token")
        #expect(try await harness.client.accessToken() == "access-2")
    }

    @Test func anExpiredTokenIsRefreshedEvenLongAfter() async throws {
        let harness = Harness(accessLifetime: 900)
        harness.clock.advance(by: 86_400)
        #expect(try await harness.client.accessToken() == "access-2")
        #expect(harness.server.count("/v1/token/refresh") == 1)
    }

    @Test func aStoredSessionThatCanNoLongerBeRefreshedIsDroppedAtLaunchWithoutARequest() async {
        let clock = TestClock()
        let server = FakeLatchServer(clock: clock)
        let stored = server.session(1)
        let store = InMemorySessionStore(session: stored, deviceToken: "device-1")
        clock.advance(by: stored.refreshTokenExpiresAt.timeIntervalSince(clock.now) + 1)
        let client = LatchClient(baseURL: Harness.baseURL, store: store, transport: server, now: clock.function)
        var changes = await client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)
        #expect(store.loadSession() == nil)
        #expect(store.loadDeviceToken() == "device-1")
        #expect(server.allRequests.isEmpty)
    }
}
