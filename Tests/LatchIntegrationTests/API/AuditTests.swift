import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 9: an audit row for every sign-in (success and failure), confirm, reset and session revocation,
/// with the client's address and never a secret.
@Suite struct AuditTests {
    struct Row: CustomStringConvertible {
        let event: String
        let userID: String?
        let ip: String?
        let detail: String
        var description: String { "\(event) \(detail)" }
    }

    static func rows(_ app: TestApp) throws -> [Row] {
        try app.pool.query("SELECT event, user_id::text, ip, coalesce(detail::text, '') FROM audit_log ORDER BY id")
            .map { row in
                Row(event: try row.decode(String.self, column: 0), userID: try row.decode(String?.self, column: 1),
                    ip: try row.decode(String?.self, column: 2), detail: try row.decode(String.self, column: 3))
            }
    }

    @Test func everySecurityEventIsAuditedWithoutSecrets() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "tess@example.test"
        #expect(try app.signUp(email, "tess Passphrase").status == 202)
        let confirmToken = try app.confirmToken(email)
        let confirmed = try app.confirm(confirmToken).json(SessionJSON.self)
        let signedIn = try app.session(email, "tess Passphrase")
        #expect(try app.signIn(email, "wrong Passphrase").status == 401)
        #expect(try app.signIn("stranger@example.test", "stranger Passphrase").status == 401)
        #expect(try app.post("/v1/signout", fields: ["scope": "local"], headers: signedIn.bearer).status == 204)
        _ = try app.post("/v1/password/forgot", fields: ["email": email])
        let resetToken = try app.resetToken(email)
        #expect(try app.resetPassword(resetToken, "new tess Passphrase").status == 200)

        let rows = try Self.rows(app)
        let userID = confirmed.user.id
        func events(_ name: String) -> [Row] { rows.filter { $0.event == name } }
        #expect(events("email_confirmed").count == 1)
        #expect(events("email_confirmed").first?.userID == userID)
        #expect(events("sign_in_succeeded").count == 1)
        let failures = events("sign_in_failed")
        #expect(failures.count == 2, "\(rows)")
        #expect(failures.contains { $0.userID == userID && $0.detail.contains("wrong_password") })
        #expect(failures.contains { $0.userID == nil && $0.detail.contains("unknown_email") })
        #expect(events("session_revoked").count == 1)
        #expect(events("session_revoked").first?.detail.contains("local") == true)
        #expect(events("password_reset").count == 1)
        #expect(rows.filter { ["email_confirmed", "sign_in_succeeded", "sign_in_failed", "session_revoked",
                                "password_reset"].contains($0.event) }
            .allSatisfy { $0.ip == "127.0.0.1" }, "the client's address is recorded: \(rows.map(\.ip))")

        let secrets = ["tess Passphrase", "wrong Passphrase", "stranger Passphrase", "new tess Passphrase",
                       confirmToken, resetToken, confirmed.access_token, confirmed.refresh_token,
                       signedIn.access_token, signedIn.refresh_token, "argon2"]
        for row in rows {
            for secret in secrets {
                #expect(!row.detail.contains(secret), "\(row.event) holds \(secret.prefix(6))…")
            }
        }
    }

    @Test func globalSignOutAndRefreshReuseAreAudited() throws {
        let app = try TestApp()
        defer { app.stop() }
        let first = try app.signUpAndConfirm("uma@example.test", "uma Passphrase")
        _ = try app.session("uma@example.test", "uma Passphrase")
        _ = try app.refresh(first.refresh_token)
        _ = try app.refresh(first.refresh_token)
        let other = try app.session("uma@example.test", "uma Passphrase")
        #expect(try app.post("/v1/signout", fields: ["scope": "global"], headers: other.bearer).status == 204)
        let rows = try Self.rows(app)
        #expect(rows.filter { $0.event == "refresh_token_reused" }.count == 1)
        let revoked = rows.filter { $0.event == "session_revoked" }
        #expect(revoked.count == 1)
        #expect(revoked.first?.detail.contains("global") == true)
    }
}
