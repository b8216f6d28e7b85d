import AuthCore
import Foundation
import LatchStore
import LatchTestSupport
import PostgresClient
import Testing
import TestKit
import Webhooks

/// ARCHITECTURE.md, security rule 8 and "Webhooks": a payload holds no secret. An endpoint subscribed to every
/// type watches a user's whole life over real HTTP (sign-up, confirm, sign-in, refresh and its replay, sign-in by
/// mail, forgot and reset, password change, address change, TOTP enrolment and a TOTP sign-in, a session ended,
/// the account deleted); every delivered body and every stored payload is searched for every secret the test
/// knows or can read from the database, and holds only the documented keys.
@Suite(.serialized) struct WebhookPayloadSecretTests {
    static let topKeys: Set<String> = ["type", "timestamp", "data"]
    /// The keys the trigger may copy into `data` (sql/0015_webhooks.sql): ids, the provider, and addresses for
    /// the two types that carry one.
    static let dataKeys: Set<String> = ["user_id", "session_id", "passkey_id", "identity_id", "factor_id", "provider",
                                        "email", "old_email"]

    /// The scanner finds what is planted, in each form, and nothing in a clean payload: the search below can fail.
    @Test func theScannerFindsAPlantedSecret() {
        var scanner = PayloadSecretScanner()
        scanner.add("password", "planted Passphrase 1")
        scanner.add("digest", bytes: Data((0..<32).map { UInt8($0 * 7 % 256) }))
        let clean = #"{"data":{"user_id":"8f14e45f-ceea-467f-a0e6-3b2a5f0f8b1a"},"type":"user.created"}"#
        #expect(scanner.findings(in: clean).isEmpty)
        #expect(scanner.findings(in: #"{"data":{"note":"planted Passphrase 1"}}"#) == ["password"])
        let hex = Data((0..<32).map { UInt8($0 * 7 % 256) }).map { String(format: "%02X", $0) }.joined()
        #expect(scanner.findings(in: "x\(hex)x") == ["digest (hex)"])
        let base64url = Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(scanner.findings(in: base64url).contains("digest (base64url)"))
        #expect(PayloadSecretScanner.tokens(inMail: "Open https://x.test/c?token=AbC_12-xYz0987654321q now, or type 1234 5678.")
            == ["AbC_12-xYz0987654321q", "12345678"])
    }

    @Test func noPayloadHoldsASecret() throws {
        let receiver = try ScriptedReceiver { _, _ in .status(200) }
        let environment = TestApp.roomySecondFactorLimits.merging(WebhookDeliveryTests.Setup.environment) { $1 }
            .merging(["LATCH_RATE_SIGNUP_IP": "1000/1h", "LATCH_RATE_SIGNUP_EMAIL": "100/1h"]) { $1 }
        let app = try TestApp(environment: environment, webhookSchedule: WebhookDeliveryTests.schedule)
        defer { app.stop() }
        let endpoint = try WebhookEndpointFixture(pool: app.pool)
        try endpoint.add(url: receiver.url())

        var scanner = PayloadSecretScanner()
        scanner.add("webhook secret", endpoint.secret.text)
        let rawSecret = String(endpoint.secret.text.dropFirst("whsec_".count))
        scanner.add("webhook secret, raw (base64)", rawSecret)
        if let bytes = Data(base64Encoded: rawSecret) { scanner.add("webhook secret, raw", bytes: bytes) }
        try Self.runEveryFlow(app, scanner: &scanner)
        try Self.addDatabaseSecrets(app.pool, to: &scanner)

        let expectedTypes: Set<String> = [
            "user.created", "user.email_confirmed", "session.created", "security.refresh_token_reused",
            "user.password_reset", "user.password_changed", "user.email_changed", "mfa.enabled", "session.revoked",
            "user.deleted",
        ]
        #expect(try eventually(within: .seconds(60), every: .milliseconds(50)) {
            try app.count("SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL") == 0
        }, "every delivery ends delivered")
        let stored = try app.pool.query("SELECT id, payload FROM webhook_events ORDER BY audit_id")
            .map { (try $0.decode(String.self, column: 0), try $0.decode(String.self, column: 1)) }
        let delivered = receiver.requests.map { ($0.webhookID ?? "?", String(decoding: $0.body, as: UTF8.self)) }
        #expect(Set(delivered.map(\.0)) == Set(stored.map(\.0)), "every stored event was delivered")

        var types: Set<String> = []
        for (id, payload) in stored + delivered {
            let findings = scanner.findings(in: payload)
            #expect(findings.isEmpty, "\(id) holds \(findings): \(payload)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Self.topKeys, "\(id): \(payload)")
            let type = try #require(object["type"] as? String)
            types.insert(type)
            let data = try #require(object["data"] as? [String: Any], "\(id): \(payload)")
            #expect(Set(data.keys).isSubset(of: Self.dataKeys) && data["user_id"] is String, "\(id): \(payload)")
            #expect(data.values.allSatisfy { $0 is String }, "\(id): \(payload)")
            if data["email"] != nil { #expect(["user.created", "user.email_changed"].contains(type), "\(payload)") }
            if data["old_email"] != nil { #expect(type == "user.email_changed", "\(payload)") }
        }
        #expect(types.isSuperset(of: expectedTypes), "missing: \(expectedTypes.subtracting(types))")
        // The search had something to find: passwords, tokens, codes, the TOTP key, digests, the webhook secret.
        print("WebhookPayloadSecretTests: \(scanner.secrets.count) secret forms searched in \(stored.count) stored "
              + "and \(delivered.count) delivered payloads of \(types.count) types")
        #expect(scanner.secrets.count > 100)
    }

    /// The flows, each over real HTTP; every secret they show the client or mail goes into the scanner.
    static func runEveryFlow(_ app: TestApp, scanner: inout PayloadSecretScanner) throws {
        func session(_ label: String, _ session: SessionJSON) {
            scanner.add("\(label) access token", session.access_token)
            scanner.add("\(label) refresh token", session.refresh_token)
            if let device = session.device_token { scanner.add("\(label) device token", device) }
        }
        // A user with a second factor: sign-up, confirm, sign-in, re-authentication, TOTP enrolment, activation.
        let mfaPassword = "webhook mfa Passphrase 3"
        let enrolled = try app.enrolledUser("mfa-secrets@example.test", mfaPassword)
        scanner.add("password of the TOTP user", mfaPassword)
        scanner.add("TOTP secret", enrolled.enrollment.secret)
        scanner.add("otpauth URI", enrolled.enrollment.otpauth_uri)
        scanner.add("TOTP key", bytes: enrolled.authenticator.secretBytes)
        for code in enrolled.recoveryCodes { scanner.add("recovery code", code) }
        scanner.add("activation access token", enrolled.accessToken)
        scanner.add("TOTP code", enrolled.authenticator.code(0))
        let ticket = try app.ticket(enrolled.email, mfaPassword)
        scanner.add("MFA ticket", ticket)
        let code = enrolled.authenticator.code(1)
        scanner.add("TOTP code", code)
        session("TOTP sign-in", try app.signedIn(try app.completeSignIn(ticket: ticket, code: code)))

        // A user without one, through everything else.
        let email = "secrets@example.test", newEmail = "secrets-new@example.test"
        let passwords = ["webhook first Passphrase", "webhook reset Passphrase", "webhook changed Passphrase"]
        for password in passwords { scanner.add("password", password) }
        let confirmed = try app.signUpAndConfirm(email, passwords[0])
        session("confirm", confirmed)
        let signedIn = try app.session(email, passwords[0])
        session("sign-in", signedIn)
        let rotated = try app.refresh(signedIn.refresh_token).json(SessionJSON.self)
        session("refresh", rotated)
        #expect(try app.refresh(signedIn.refresh_token).status == 401, "the replay is refused")
        let binding = SignInSecret()
        scanner.add("sign-in binding secret", binding.secret)
        scanner.add("sign-in binding", binding.binding)
        session("sign-in by mail", try app.emailSignIn(email, binding))
        #expect(try app.post("/v1/password/forgot", fields: ["email": email]).status == 202)
        #expect(try app.resetPassword(try app.resetToken(email), passwords[1]).status == 200)
        let afterReset = try app.session(email, passwords[1])
        session("after reset", afterReset)
        let changed = try app.send("POST", "/v1/password/change",
                                   ["current_password": passwords[1], "new_password": passwords[2]],
                                   bearer: afterReset.access_token)
        #expect(changed.status == 200, "\(changed.text)")
        let asked = try app.send("POST", "/v1/email/change", ["new_email": newEmail, "password": passwords[2]],
                                 bearer: afterReset.access_token)
        #expect(asked.status == 202, "\(asked.text)")
        let changeToken = try #require(try app.tokens(newEmail, kind: .confirmEmailChange).last)
        #expect(try app.post("/v1/email/change/confirm", fields: ["token": changeToken]).status == 200)
        let other = try app.session(newEmail, passwords[2])
        session("second device", other)
        let fresh = try app.session(newEmail, passwords[2])
        session("fresh", fresh)
        let listed = try app.send("GET", "/v1/sessions", bearer: fresh.access_token)
            .json(AccountManagementTests.SessionList.self).sessions
        let otherID = try #require(listed.first { !$0.current }?.id)
        #expect(try app.send("DELETE", "/v1/sessions/\(otherID)", bearer: fresh.access_token).status == 204)

        // The mails: every link's token and every code, read before the account (and its mail) is gone.
        try addMailSecrets(app, to: &scanner)
        try addDatabaseSecrets(app.pool, to: &scanner)
        let deleted = try app.send("DELETE", "/v1/me", ["password": passwords[2]], bearer: fresh.access_token)
        #expect(deleted.status < 300, "\(deleted.text)")
    }

    static func addMailSecrets(_ app: TestApp, to scanner: inout PayloadSecretScanner) throws {
        try app.settleDeferredMail()
        let rows = try app.pool.query("SELECT kind, deep_link, text_body, html_body FROM outbox ORDER BY id")
        #expect(rows.count >= 6, "the flows mailed links and codes")
        for row in rows {
            let kind = try row.decode(String.self, column: 0)
            if let link = try row.decode(String?.self, column: 1), let url = URL(string: link),
               let token = app.parser.parse(url).link?.token {
                scanner.add("\(kind) link token", token)
            }
            for column in [2, 3] {
                let text = try row.decode(String?.self, column: column) ?? ""
                if let code = try? TestApp.typedCode(in: text) { scanner.add("\(kind) code", code) }
                for token in PayloadSecretScanner.tokens(inMail: text) { scanner.add("\(kind) mail token", token) }
            }
        }
    }

    /// Every bytea value (token and code digests, sealed secrets and keys) in each encoding, and every text column
    /// named for a hash or secret (the Argon2id PHC strings).
    static func addDatabaseSecrets(_ pool: PostgresPool, to scanner: inout PayloadSecretScanner) throws {
        let columns = try pool.query("""
            SELECT c.table_name::text, c.column_name::text, c.data_type = 'bytea'
            FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
              AND (c.data_type = 'bytea'
                   OR (c.data_type IN ('text', 'character varying')
                       AND (c.column_name LIKE '%hash%' OR c.column_name LIKE '%secret%')))
            ORDER BY 1, 2
            """).map { (try $0.decode(String.self, column: 0), try $0.decode(String.self, column: 1),
                        try $0.decode(Bool.self, column: 2)) }
        #expect(columns.contains { $0.0 == "users" && $0.1 == "password_hash" })
        for (table, column, isBytea) in columns {
            // Identifiers come from the catalog, quoted all the same.
            let sql = "SELECT \"\(column)\" FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL"
            for row in try pool.query(sql, []) {
                if isBytea {
                    scanner.add("\(table).\(column)", bytes: try row.decode(Data.self, column: 0))
                } else {
                    let text = try row.decode(String.self, column: 0)
                    scanner.add("\(table).\(column)", text)
                    // The PHC string's last field is the hash itself (unpadded base64).
                    if let last = text.split(separator: "$").last { scanner.add("\(table).\(column) digest", String(last)) }
                }
            }
        }
    }
}
