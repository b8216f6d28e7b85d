import AuthCore
import Foundation
import LatchTestSupport
import TestKit
import Testing

/// latchd's own background jobs (`PeriodicJob`): the resolver of mail asked for by address, and the purge.
@Suite struct BackgroundJobTests {
    static let password = "background jobs Passphrase 8"

    /// A forgot answered and then the daemon gone before its beat (a crash, a deploy): the request was one
    /// committed row, and the next daemon on the database mails the link and writes the audit row then.
    @Test func aRequestAnsweredBeforeTheDaemonWentIsMailedByTheNext() throws {
        let email = "crashed-forgot@example.com"
        // A beat that never comes while this daemon runs.
        let first = try TestApp(environment: ["LATCH_DEFERRED_MAIL_INTERVAL": "1h"])
        _ = try first.signUpAndConfirm(email, Self.password)
        let client = try first.client()
        let answer = try client.sendJSON("POST", "/v1/password/forgot", json: TestApp.body(["email": email]))
        client.close()
        #expect(answer.status == 202)
        #expect(try first.count("SELECT count(*)::int8 FROM deferred_mail") == 1)
        #expect(try first.count("SELECT count(*)::int8 FROM outbox WHERE kind = 'reset_password'") == 0)
        first.stopKeepingDatabase()

        let next = try TestApp(database: first.database)
        defer { next.stop() }
        let token = try #require(try next.latestToken(to: email, kind: .resetPassword))
        #expect(try next.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'password_reset_requested'") == 1)
        #expect(try next.resetPassword(token, "a fresh Passphrase 9").status == 200)
    }

    /// The purge `latchctl tokens purge` runs, run by latchd on its own: an account nobody confirmed within
    /// LATCH_UNCONFIRMED_TTL goes, its audit row says latchd did it, and the metrics count it.
    @Test func latchdPurgesUnconfirmedAccountsOnItsOwn() throws {
        let app = try TestApp(environment: ["LATCH_PURGE_INTERVAL": "0.2"])
        defer { app.stop() }
        #expect(try app.signUp("squatter@example.com", Self.password).status == 202)
        #expect(try app.signUp("newcomer@example.com", Self.password).status == 202)
        _ = try app.pool.query(
            "UPDATE users SET created_at = created_at - interval '8 days' WHERE email = 'squatter@example.com'")

        #expect(try eventually(within: .seconds(20)) {
            try app.count("SELECT count(*)::int8 FROM users WHERE email = 'squatter@example.com'") == 0
        })
        #expect(try app.count("SELECT count(*)::int8 FROM users WHERE email = 'newcomer@example.com'") == 1)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'unconfirmed_purged' AND detail->>'source' = 'latchd'
            """) == 1)
        let metrics = try app.metrics().text
        #expect(MailChecks.metricValue("latch_purge_failures_total", in: metrics) == 0, "\(metrics)")
        #expect((MailChecks.metricValue("latch_purge_handled_total", in: metrics) ?? 0) >= 1, "\(metrics)")
    }

    @Test func thePurgeCanBeTurnedOff() throws {
        let app = try TestApp(environment: ["LATCH_PURGE_INTERVAL": "off"])
        defer { app.stop() }
        let metrics = try app.metrics().text
        #expect(!metrics.contains("latch_purge_"))
        #expect(MailChecks.metricValue("latch_deferred_mail_handled_total", in: metrics) == 0)
    }
}
