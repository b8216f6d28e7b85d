import Foundation
import LatchClient
import TestKit
import Testing

/// Twenty concurrent calls with an expired access token against the real latchd cause exactly one refresh:
/// counted at the client's transport and in PostgreSQL (one new refresh-token row). A second refresh with the
/// same token would have revoked the family (`refresh_token_reused`), and the calls would have failed.
@Suite struct ClientRefreshTests {
    static let refreshRows = """
        SELECT count(*)::int8 FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)
        """

    @Test func twentyCallsRefusedForAnAccessTokenExpiredAtTheServerShareOneRefresh() async throws {
        let serverClock = ShiftedClock()
        let app = try TestApp(clock: serverClock)
        defer { app.stop() }
        let transport = CountingTransport()
        let client = try app.latchClient(transport: transport)
        let email = "refresh-401@example.test"
        try await app.signUpAndConfirm(email, with: client)
        // Expired at the server (its clock is past the token's exp); the client's clock still says fifteen
        // minutes: every call meets a 401.
        serverClock.advance(by: 15 * 60 + 1)

        try await expectOneRefresh(for: email, client: client, transport: transport, app: app)
    }

    @Test func twentyCallsWithAnAccessTokenTheDeviceSeesExpiringShareOneRefresh() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let transport = CountingTransport()
        let clock = ShiftedClock()
        let client = try app.latchClient(transport: transport, now: clock.function)
        let email = "refresh-ahead@example.test"
        try await app.signUpAndConfirm(email, with: client)
        clock.advance(by: 15 * 60)  // the device sees the 15-minute token expire; it refreshes before calling

        try await expectOneRefresh(for: email, client: client, transport: transport, app: app)
    }

    private func expectOneRefresh(for email: String, client: LatchClient, transport: CountingTransport, app: TestApp)
        async throws {
        let rowsBefore = try app.count(Self.refreshRows, [email])
        let results = await runConcurrently(tasks: 20) { (_: Int) async throws(LatchError) -> User in
            try await client.me()
        }
        let users = results.compactMap { try? $0.get() }
        #expect(users.count == 20, "\(results)")
        #expect(users.allSatisfy { $0.email == email })
        #expect(transport.count("/v1/token/refresh") == 1)
        #expect(try app.count(Self.refreshRows, [email]) == rowsBefore + 1, "one rotation at the server")
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'refresh_token_reused'") == 0)
        let token = try await client.accessToken()
        #expect(try app.me(token).status == 200, "the session lives on with the refreshed token")
    }
}
