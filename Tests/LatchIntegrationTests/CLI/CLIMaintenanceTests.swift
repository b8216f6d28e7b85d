import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// `latchctl migrate`, `outbox`, `audit` and `tokens purge`.
@Suite(.serialized) struct CLIMaintenanceTests {
    @Test func migrateAppliesThenReportsAndStatusLists() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let latchctl = Latchctl(databaseURL: database.url)
        let pending = try latchctl("migrate", "--status", "--json").jsonObject()
        #expect((pending["applied"] as? [Any])?.isEmpty == true)
        let files = try #require(pending["pending"] as? [[String: Any]])
        #expect(files.first?["file"] as? String == "0001_init.sql")

        let applied = try latchctl("migrate")
        #expect(applied.status == 0, "\(applied)")
        #expect(applied.standardOutput.hasPrefix("applied 0001_init.sql\n"))
        #expect(try latchctl("migrate").standardOutput == "schema is up to date\n")
        let status = try latchctl("migrate", "--status")
        #expect(status.standardOutput.hasPrefix("VERSION  NAME"))
        let rows = status.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.prefix(3) == ["1", "init", "applied"] }, "\(status.standardOutput)")
        let after = try latchctl("migrate", "--status", "--json").jsonObject()
        #expect((after["applied"] as? [Any])?.count == files.count)
        #expect((after["pending"] as? [Any])?.isEmpty == true)
    }

    @Test func outboxListShowsEnvelopesOnlyAndRetryMakesMailDue() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "jo@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let token = try #require(try app.latestToken(to: "jo@example.com", kind: .confirmEmail))

        let listed = try latchctl("outbox", "list", "--json").jsonArray()
        #expect(listed.count == 1)
        let id = try #require(listed.first?["id"] as? Int)
        #expect(listed.first?["kind"] as? String == "confirm_email")
        #expect(listed.first?["state"] as? String == "pending")
        let table = try latchctl("outbox", "list")
        #expect(table.standardOutput.hasPrefix("ID  KIND"))
        #expect(!table.standardOutput.contains(token) && !listed.description.contains(token), "no link or body listed")

        // A mail backing off after a failed attempt is made due now.
        try app.pool.query(
            "UPDATE outbox SET attempts = 1, last_error = 'timeout', next_attempt_at = now() + interval '1 hour' WHERE id = $1",
            [Int64(id)])
        let retried = try latchctl("outbox", "retry", String(id))
        #expect(retried.status == 0, "\(retried)")
        #expect(retried.standardOutput == "retried 1 mail\n")
        let due = try app.pool.query("SELECT next_attempt_at <= now() FROM outbox WHERE id = $1", [Int64(id)])
        #expect(try due.first?.decode(Bool.self, column: 0) == true)
        #expect(try latchctl("outbox", "retry", String(id)).status == 1, "already due: nothing to retry")
        #expect(try latchctl("outbox", "retry", "99999").status == 1)

        // A mail the worker gave up on was scrubbed: counted, not resent.
        try app.pool.query(
            "UPDATE outbox SET failed_at = now(), subject = NULL, text_body = NULL, html_body = NULL, deep_link = NULL WHERE id = $1",
            [Int64(id)])
        #expect(try latchctl("outbox", "list", "--failed", "--json").jsonArray().count == 1)
        #expect(try latchctl("outbox", "list", "--pending", "--json").jsonArray().isEmpty)
        let failed = try latchctl("outbox", "retry", "--failed", "--json").jsonObject()
        #expect(failed["retried"] as? Int == 0)
        #expect(failed["unrecoverable"] as? Int == 1)
    }

    @Test func auditFiltersByEmailAndTime() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "kai@example.com")
        try CLILinkTests.signUp(app, "lea@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        #expect(try latchctl("link", "confirm", "--email", "kai@example.com").status == 0)
        // latchd's first signing key is audited too; moved out of the last hour with the sign-ups.
        try app.pool.query(
            "UPDATE audit_log SET at = now() - interval '3 hours' WHERE event IN ('sign_up', 'signing_key_created')")

        let kai = try latchctl("audit", "--email", "kai@example.com", "--json").jsonArray()
        #expect(kai.compactMap { $0["event"] as? String } == ["token_issued_by_cli", "sign_up"])
        #expect((kai.first?["detail"] as? [String: Any])?["actor"] as? String == "opal")
        let recent = try latchctl("audit", "--since", "1h", "--json").jsonArray()
        #expect(recent.compactMap { $0["event"] as? String } == ["token_issued_by_cli"])
        #expect(try latchctl("audit", "--limit", "1", "--json").jsonArray().count == 1)
        let table = try latchctl("audit", "--email", "kai@example.com").standardOutput
        #expect(table.hasPrefix("AT  "))
        #expect(table.contains("token_issued_by_cli") && table.contains("actor=opal"))
    }

    @Test func purgeDeletesWhatEndedBeforeTheRetention() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "max@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        #expect(try latchctl("link", "reset", "--email", "max@example.com").status == 0)
        // The reset token expired two days ago; the confirm token is still live.
        try app.pool.query(
            "UPDATE auth_tokens SET created_at = now() - interval '3 days', expires_at = now() - interval '2 days' WHERE purpose = 'reset'")

        let kept = try latchctl("tokens", "purge", "--json").jsonObject()
        #expect(kept["tokens"] as? Int == 0, "30 days of retention keep it")
        let purged = try latchctl("tokens", "purge", "--json", environment: ["LATCH_RETENTION": "1d"]).jsonObject()
        #expect(purged["tokens"] as? Int == 1)
        #expect(purged["retention_seconds"] as? Int == 86_400)
        let left = try app.pool.query("SELECT purpose FROM auth_tokens")
        #expect(try left.map { try $0.decode(String.self, column: 0) } == ["confirm"])
        let text = try latchctl("tokens", "purge", environment: ["LATCH_RETENTION": "1d"]).standardOutput
        #expect(text.hasPrefix("deleted 0 rows ended more than 1d ago\n"
            + "deleted 0 accounts unconfirmed for more than 7d, with their links, sessions and unsent mail\nTABLE "))
    }

    /// Issue 24: sign-ups nobody confirmed within LATCH_UNCONFIRMED_TTL are deleted, and the output says how many.
    @Test func purgeReportsTheAccountsLeftUnconfirmedPastTheTTL() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "old@example.com")
        try CLILinkTests.signUp(app, "new@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let created = try latchctl("users", "create", "kept@example.com", "--password-stdin", "--confirmed",
                                   stdin: CLIUserTests.password)
        #expect(created.status == 0, "\(created)")
        try app.pool.query("UPDATE users SET created_at = now() - interval '8 days' WHERE email <> 'new@example.com'")
        try app.pool.query("UPDATE users SET created_at = now() - interval '3 days' WHERE email = 'new@example.com'")

        let purged = try latchctl("tokens", "purge", "--json").jsonObject()
        #expect(purged["unconfirmed_users"] as? Int == 1)
        #expect(purged["unconfirmed_ttl_seconds"] as? Int == 604_800)
        let left = try app.pool.query("SELECT email::text FROM users ORDER BY email")
        #expect(try left.map { try $0.decode(String.self, column: 0) } == ["kept@example.com", "new@example.com"])
        let audit = try latchctl("audit", "--json").jsonArray().filter { $0["event"] as? String == "unconfirmed_purged" }
        #expect(audit.count == 1)
        #expect((audit.first?["detail"] as? [String: Any])?["actor"] as? String == "opal")
        #expect(!"\(audit)".contains("old@"), "the row names no address")
        // The address is free again.
        try CLILinkTests.signUp(app, "old@example.com")
        #expect(try app.count("SELECT count(*) FROM users WHERE email = 'old@example.com'") == 1)

        let text = try latchctl("tokens", "purge", environment: ["LATCH_UNCONFIRMED_TTL": "2d"])
        #expect(text.standardOutput.contains(
            "\ndeleted 1 account unconfirmed for more than 2d, with their links, sessions and unsent mail\n"), "\(text)")
        let row = text.standardOutput.split(separator: "\n").first { $0.hasPrefix("unconfirmed_users ") }
        #expect(row?.split(separator: " ").last == "1", "\(text)")

        let refused = try latchctl("tokens", "purge", environment: ["LATCH_UNCONFIRMED_TTL": "1h"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardError.contains("LATCH_UNCONFIRMED_TTL: must not be shorter than LATCH_CONFIRM_TTL"))
    }
}
