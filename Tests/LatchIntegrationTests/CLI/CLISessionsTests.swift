import Foundation
import PostgresClient
import Testing

/// `latchctl sessions list|revoke` on sessions made by the API.
@Suite(.serialized) struct CLISessionsTests {
    @Test func listShowsEachSessionAndRevokeByIDEndsOnlyThatOne() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        _ = try latchctl("users", "create", "gus@example.com", "--password-stdin", "--confirmed", stdin: CLIUserTests.password)
        let first = try #require(try CLIUserTests.signIn(app, "gus@example.com"))
        let second = try #require(try CLIUserTests.signIn(app, "gus@example.com"))

        let listed = try latchctl("sessions", "list", "gus@example.com", "--json").jsonArray()
        #expect(listed.count == 2)
        #expect(listed.allSatisfy { $0["state"] as? String == "live" && $0["ip"] as? String == "127.0.0.1" })
        let table = try latchctl("sessions", "list", "gus@example.com").standardOutput
        #expect(table.hasPrefix("ID  "))
        #expect(table.split(separator: "\n").count == 3)
        #expect(!table.contains(first) && !table.contains(second), "no token is ever listed")

        // Revoke the session of the first sign-in: the one whose access token stops working.
        let firstID = try #require(try app.pool.query(
            "SELECT id::text FROM sessions WHERE access_token_hash = sha256(convert_to($1, 'UTF8'))",
            [try AccessTokenParts.tokenID(first)]
        ).first?.decode(String.self, column: 0))
        let revoked = try latchctl("sessions", "revoke", "gus@example.com", "--id", firstID, "--actor", "support-kim")
        #expect(revoked.status == 0, "\(revoked)")
        #expect(revoked.standardOutput == "revoked session \(firstID)\n")
        #expect(try CLIUserTests.me(app, first) == 401)
        #expect(try CLIUserTests.me(app, second) == 200)

        let states = try latchctl("sessions", "list", "gus@example.com", "--json").jsonArray()
        #expect(states.first { $0["id"] as? String == firstID }?["state"] as? String == "revoked")

        let audit = try app.pool.query(
            "SELECT detail->>'actor', detail->>'session_id' FROM audit_log WHERE event = 'session_revoked'")
        #expect(audit.count == 1)
        #expect(try audit.first?.decode(String.self, column: 0) == "support-kim")
        #expect(try audit.first?.decode(String.self, column: 1) == firstID)
    }

    @Test func revokeAllEndsEverySessionAndSomeoneElsesIDIsRefused() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        for email in ["hal@example.com", "ivy@example.com"] {
            _ = try latchctl("users", "create", email, "--password-stdin", "--confirmed", stdin: CLIUserTests.password)
        }
        let hal = try #require(try CLIUserTests.signIn(app, "hal@example.com"))
        _ = try #require(try CLIUserTests.signIn(app, "hal@example.com"))
        let ivy = try #require(try CLIUserTests.signIn(app, "ivy@example.com"))
        let ivyID = try #require(try latchctl("sessions", "list", "ivy@example.com", "--json").jsonArray().first?["id"] as? String)

        let foreign = try latchctl("sessions", "revoke", "hal@example.com", "--id", ivyID)
        #expect(foreign.status == 1)
        #expect(foreign.standardError == "latchctl: user hal@example.com has no session \(ivyID)\n")
        #expect(try CLIUserTests.me(app, ivy) == 200)

        let all = try latchctl("sessions", "revoke", "hal@example.com", "--all", "--json").jsonObject()
        #expect(all["revoked_sessions"] as? Int == 2)
        #expect(try CLIUserTests.me(app, hal) == 401)
        #expect(try CLIUserTests.me(app, ivy) == 200)
        #expect(try latchctl("sessions", "list", "ghost@example.com").status == 1)
        let none = try latchctl("sessions", "list", "ivy@example.com", "--json").jsonArray()
        #expect(none.count == 1)
    }
}
