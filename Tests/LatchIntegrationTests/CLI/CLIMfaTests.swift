import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// `latchctl mfa list|reset` against latchd's assembly: factors written as the store holds them, sessions and
/// sign-in tickets made by the API, and what a reset leaves behind read back from PostgreSQL.
@Suite(.serialized) struct CLIMfaTests {
    static let password = CLIUserTests.password

    /// A user made by latchctl, signed in `sessions` times through the API before any factor exists.
    static func user(_ app: TestApp, _ latchctl: Latchctl, _ email: String, sessions: Int) throws -> (id: String, tokens: [String]) {
        let created = try latchctl("users", "create", email, "--password-stdin", "--confirmed", stdin: password)
        #expect(created.status == 0, "\(created)")
        let tokens = try (0..<sessions).map { _ in try #require(try CLIUserTests.signIn(app, email)) }
        let id = try #require(try latchctl("users", "show", email, "--json").jsonObject()["id"] as? String)
        return (id, tokens)
    }

    /// An active TOTP factor, as the store writes one (the secret is never read by latchctl).
    @discardableResult
    static func insertFactor(_ app: TestApp, user: String, name: String, lastUsed: Bool = false) throws -> String {
        let id = UUID().uuidString.lowercased()
        try app.sql("""
            INSERT INTO mfa_factors (id, user_id, name, sealed_secret, created_at, activated_at, last_step, last_used_at)
            VALUES ($1::uuid, $2::uuid, $3, decode(repeat('ab', 48), 'hex'), now() - interval '1 day',
                    now() - interval '1 day', 1, CASE WHEN $4 THEN now() END)
            """, [id, user, name, lastUsed])
        return id
    }

    /// `count` recovery codes of which the first `spent` are used.
    static func insertRecoveryCodes(_ app: TestApp, user: String, count: Int, spent: Int) throws {
        for index in 0..<count {
            try app.sql("""
                INSERT INTO mfa_recovery_codes (user_id, code_hmac, created_at, used_at)
                VALUES ($1::uuid, sha256(convert_to($2, 'UTF8')), now(), CASE WHEN $3 THEN now() END)
                """, [user, "\(user)-code-\(index)", index < spent])
        }
    }

    static func rows(_ app: TestApp, _ table: String, of user: String, where condition: String = "true") throws -> Int {
        try app.count("SELECT count(*)::int8 FROM \(table) WHERE user_id = $1::uuid AND \(condition)", [user])
    }

    @Test func listShowsTheFactorsAndResetRemovesThemEndsSessionsMailsAndAudits() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let (id, tokens) = try Self.user(app, latchctl, "mia@example.com", sessions: 2)
        let (otherID, _) = try Self.user(app, latchctl, "ned@example.com", sessions: 0)
        let phone = try Self.insertFactor(app, user: id, name: "Phone", lastUsed: true)
        let tablet = try Self.insertFactor(app, user: id, name: "Tablet")
        try Self.insertRecoveryCodes(app, user: id, count: 10, spent: 2)
        // A pending enrolment is not listed, but a reset removes it too.
        try app.sql("""
            INSERT INTO mfa_factors (id, user_id, name, sealed_secret, created_at, expires_at)
            VALUES (gen_random_uuid(), $1::uuid, 'Pending', decode(repeat('cd', 48), 'hex'), now(),
                    now() + interval '10 minutes')
            """, [id])
        try Self.insertFactor(app, user: otherID, name: "Phone")
        try Self.insertRecoveryCodes(app, user: otherID, count: 10, spent: 0)
        // With a factor, a correct password earns a ticket and no session.
        let challenge = try app.post("/v1/signin", #"{"email":"mia@example.com","password":"\#(Self.password)"}"#)
        #expect(challenge.status == 200, "\(challenge.text)")
        #expect(challenge.text.contains("mfa_ticket"))
        #expect(try Self.rows(app, "mfa_tickets", of: id) == 1)

        let table = try latchctl("mfa", "list", "MIA@example.com")
        #expect(table.status == 0, "\(table)")
        let lines = table.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5, "a header, two factors, the codes and the final newline: \(table.standardOutput)")
        #expect(lines[0].hasPrefix("ID  ") && lines[0].contains("  NAME  ") && lines[0].hasSuffix("LAST_USED_AT"))
        #expect(lines[1].hasPrefix(phone) && lines[1].contains("  Phone  ") && !lines[1].hasSuffix("-"))
        #expect(lines[2].hasPrefix(tablet) && lines[2].contains("  Tablet  ") && lines[2].hasSuffix("  -"))
        #expect(lines[3] == "recovery codes left: 8")
        #expect(!table.standardOutput.contains("Pending"))

        let listed = try latchctl("mfa", "list", "mia@example.com", "--json").jsonObject()
        #expect(listed["email"] as? String == "mia@example.com")
        #expect(listed["user_id"] as? String == id)
        #expect(listed["enabled"] as? Bool == true)
        #expect(listed["recovery_codes_remaining"] as? Int == 8)
        let factors = try #require(listed["factors"] as? [[String: Any]])
        #expect(factors.compactMap { $0["id"] as? String } == [phone, tablet], "oldest first")
        #expect(factors.compactMap { $0["name"] as? String } == ["Phone", "Tablet"])
        #expect(factors[0]["last_used_at"] is String && factors[1]["last_used_at"] is NSNull)
        #expect(factors.allSatisfy { $0["created_at"] is String && $0["sealed_secret"] == nil && $0["secret"] == nil })

        let reset = try latchctl("mfa", "reset", "Mia@Example.com", "--actor", "support-kim")
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardOutput == "reset two-step verification of mia@example.com: removed 2 factors and every "
            + "recovery code, revoked 2 sessions; notice mail queued\n")
        #expect(reset.standardError.isEmpty)

        for table in ["mfa_factors", "mfa_recovery_codes", "mfa_tickets"] {
            #expect(try Self.rows(app, table, of: id) == 0, "\(table)")
        }
        #expect(try Self.rows(app, "sessions", of: id, where: "revoked_at IS NULL") == 0)
        #expect(try Self.rows(app, "sessions", of: id) == 2, "ended, not deleted")
        for token in tokens { #expect(try CLIUserTests.me(app, token) == 401) }
        #expect(try app.outboxCount(to: "mia@example.com", kind: .secondFactorRemoved) == 1)
        #expect(try app.count(
            "SELECT count(*)::int8 FROM outbox WHERE kind = 'mfa_removed' AND user_id = $1::uuid", [id]) == 1)
        let audit = try app.pool.query("""
            SELECT user_id::text, detail->>'actor', detail->>'source', detail->>'removed_factors',
                   detail->>'revoked_sessions', detail->>'mail_queued'
            FROM audit_log WHERE event = 'mfa_reset'
            """)
        #expect(audit.count == 1)
        let row = try #require(audit.first)
        #expect(try row.decode(String.self, column: 0) == id)
        #expect(try row.decode(String.self, column: 1) == "support-kim")
        #expect(try row.decode(String.self, column: 2) == "latchctl")
        #expect(try row.decode(String.self, column: 3) == "2")
        #expect(try row.decode(String.self, column: 4) == "2")
        #expect(try row.decode(String.self, column: 5) == "true")

        // Someone else's factor stays; the user signs in with the password alone and may enrol again.
        #expect(try Self.rows(app, "mfa_factors", of: otherID) == 1)
        #expect(try Self.rows(app, "mfa_recovery_codes", of: otherID) == 10)
        #expect(try CLIUserTests.signIn(app, "mia@example.com") != nil)
        let after = try latchctl("mfa", "list", "mia@example.com")
        #expect(after.status == 0, "\(after)")
        #expect(after.standardOutput == "two-step verification is off for mia@example.com\n")
        let afterJSON = try latchctl("mfa", "list", "mia@example.com", "--json").jsonObject()
        #expect(afterJSON["enabled"] as? Bool == false)
        #expect((afterJSON["factors"] as? [Any])?.isEmpty == true)
        #expect(afterJSON["recovery_codes_remaining"] as? Int == 0)
    }

    @Test func resetOfAUserWithoutAFactorSucceedsEndsNoSessionAndMailsNothing() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let (id, tokens) = try Self.user(app, latchctl, "oz@example.com", sessions: 1)

        let listed = try latchctl("mfa", "list", "oz@example.com")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.standardOutput == "two-step verification is off for oz@example.com\n")

        let reset = try latchctl("mfa", "reset", "oz@example.com")
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardOutput
            == "two-step verification was not on for oz@example.com: nothing removed, no mail queued\n")
        let json = try latchctl("mfa", "reset", "oz@example.com", "--json").jsonObject()
        #expect(json["removed_factors"] as? Int == 0)
        #expect(json["revoked_sessions"] as? Int == 0)
        #expect(json["mail_queued"] as? Bool == false)
        #expect(json["user_id"] as? String == id)

        #expect(try CLIUserTests.me(app, tokens[0]) == 200, "the session goes on")
        #expect(try app.outboxCount(to: "oz@example.com", kind: .secondFactorRemoved) == 0)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log
            WHERE event = 'mfa_reset' AND detail->>'removed_factors' = '0' AND detail->>'actor' = 'opal'
            """) == 2, "each reset is audited with the operator")
    }

    @Test func unknownUsersAreAFailedOperation() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let latchctl = Latchctl(databaseURL: database.url)
        for command in ["list", "reset"] {
            let result = try latchctl("mfa", command, "ghost@example.com")
            #expect(result.status == 1, "mfa \(command): \(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError == "latchctl: no user with email ghost@example.com\n")
        }
    }

    /// Factor names come from clients; one stored before the API cleaned them must reach the terminal escaped.
    @Test func listShowsControlCharactersInNamesEscaped() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let (id, _) = try Self.user(app, latchctl, "pia@example.com", sessions: 0)
        try Self.insertFactor(app, user: id, name: "Phone\u{1B}[2J\r\nforged\u{202E}")

        let table = try latchctl("mfa", "list", "pia@example.com")
        #expect(table.status == 0, "\(table)")
        CLIControlCharacterTests.expectNoControls(table.standardOutput)
        #expect(table.standardOutput.contains(#"Phone\u{1B}[2J\u{D}\u{A}forged\u{202E}"#))
        #expect(table.standardOutput.split(separator: "\n").count == 3, "a header, one row, the codes")
        let json = try latchctl("mfa", "list", "pia@example.com", "--json")
        CLIControlCharacterTests.expectNoControls(json.standardOutput)
        let factors = try #require(try json.jsonObject()["factors"] as? [[String: Any]])
        #expect(factors.first?["name"] as? String == "Phone\u{1B}[2J\r\nforged\u{202E}", "JSON keeps the value")
    }
}

/// The mfa commands in help and usage, without a database.
@Suite struct CLIMfaUsageTests {
    let latchctl = Latchctl(databaseURL: "postgresql://nobody@127.0.0.1:1/nowhere")

    @Test func helpListsTheGroupAndItsCommands() throws {
        let root = try latchctl("--help")
        #expect(root.status == 0, "\(root)")
        #expect(root.standardOutput.contains("\n  mfa "), "root help lists mfa: \(root.standardOutput)")
        let group = try latchctl("mfa", "--help")
        #expect(group.status == 0, "\(group)")
        #expect(group.standardOutput.hasPrefix("usage: latchctl mfa <command>"))
        for command in ["list", "reset"] {
            #expect(group.standardOutput.contains("\n  \(command) "), "mfa help lists \(command)")
        }
        for command in ["list", "reset"] {
            let leaf = try latchctl("mfa", command, "-h")
            #expect(leaf.status == 0, "\(leaf)")
            #expect(leaf.standardOutput.hasPrefix("usage: latchctl mfa \(command) EMAIL\n"))
            #expect(leaf.standardOutput.contains("global options:"))
        }
        #expect(try latchctl("mfa", "reset", "--help").standardOutput.contains("mfa_reset"))
    }

    @Test(arguments: [
        (["mfa"], "missing command for 'latchctl mfa'"),
        (["mfa", "list"], "missing EMAIL"),
        (["mfa", "reset"], "missing EMAIL"),
        (["mfa", "reset", "a@example.com", "b@example.com"], "too many arguments"),
        (["mfa", "reset", "a@example.com", "--yes"], "unknown option --yes"),
        (["mfa", "disable", "a@example.com"], "unknown command 'disable'"),
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let result = try latchctl.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("latchctl: "))
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "exactly one line")
    }

    @Test func resetNeedsAnOperatorName() throws {
        let result = try latchctl("mfa", "reset", "a@example.com", environment: ["USER": ""])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError == "latchctl: say who you are with --actor NAME (USER is not set)\n")
    }
}
