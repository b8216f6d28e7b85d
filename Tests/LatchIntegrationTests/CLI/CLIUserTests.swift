import AuthCore
import Foundation
import PostgresClient
import Testing

/// `latchctl users …` against latchd's assembly: accounts made by the CLI work in the API and vice versa.
@Suite(.serialized) struct CLIUserTests {
    static let password = "correct horse battery"

    static func signIn(_ app: TestApp, _ email: String, password: String = password) throws -> String? {
        let response = try app.post("/v1/signin", #"{"email":"\#(email)","password":"\#(password)"}"#)
        guard response.status == 200 else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["access_token"] as? String
    }

    static func me(_ app: TestApp, _ accessToken: String) throws -> Int {
        try app.get("/v1/me", headers: [("Authorization", "Bearer \(accessToken)")]).status
    }

    @Test func createWithAPasswordFromStdinSignsInThroughTheAPI() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let created = try latchctl(
            "users", "create", "Alice@Example.com", "--password-stdin", "--confirmed", stdin: Self.password + "\n")
        #expect(created.status == 0, "\(created)")
        #expect(created.standardOutput.hasPrefix("created user Alice@example.com ("))
        #expect(!created.standardOutput.contains(Self.password))
        #expect(try Self.signIn(app, "alice@example.com") != nil, "the CLI hashed it as the API verifies it")
        let hash = try app.pool.query("SELECT password_hash FROM users WHERE email = 'alice@example.com'")
        #expect(try hash.first?.decode(String.self, column: 0).hasPrefix("$argon2id$v=19$m=64,t=1,p=1$") == true)
        #expect(try app.outboxCount(to: "Alice@example.com") == 0, "creating a user queues no mail")
    }

    @Test func unlockEndsALockoutOthersCausedAndIsAudited() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("olga@example.com", Self.password)
        for attempt in 1...5 { _ = try app.signIn("olga@example.com", "guess number \(attempt)") }
        #expect(try app.signIn("olga@example.com", Self.password).status == 429)

        let latchctl = Latchctl(databaseURL: app.database.url)
        let unlocked = try latchctl("users", "unlock", "OLGA@example.com", "--actor", "opal")
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.standardOutput == "unlocked olga@example.com\n")
        #expect(try app.signIn("olga@example.com", Self.password).status == 200)
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'user_unlocked' AND detail->>'actor' = 'opal'") == 1)
        #expect(try latchctl("users", "unlock", "nobody@example.com").status == 1)
    }

    @Test func createRefusesWeakPasswordsTakenEmailsAndEmptyStdin() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let weak = try latchctl("users", "create", "bob@example.com", "--password-stdin", stdin: "password\n")
        #expect(weak.status == 1)
        #expect(weak.standardError.contains("too common"))
        let empty = try latchctl("users", "create", "bob@example.com", "--password-stdin", stdin: "")
        #expect(empty.status == 1)
        #expect(try latchctl("users", "create", "bob@example.com").status == 0)
        let taken = try latchctl("users", "create", "BOB@example.com")
        #expect(taken.status == 1)
        #expect(taken.standardError == "latchctl: a user with email BOB@example.com already exists\n")
        let invalid = try latchctl("users", "create", "not-an-email")
        #expect(invalid.status == 1)
    }

    @Test func listShowsATableAndJSONWithFilters() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        #expect(try latchctl("users", "create", "confirmed@example.com", "--confirmed").status == 0)
        #expect(try latchctl("users", "create", "pending@example.com").status == 0)
        #expect(try latchctl("users", "create", "off@example.com", "--confirmed").status == 0)
        #expect(try latchctl("users", "disable", "off@example.com").status == 0)

        let table = try latchctl("users", "list")
        #expect(table.status == 0)
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("EMAIL  "))
        let sessionsColumn = try #require(lines[0].range(of: "SESSIONS"))
        let columnStart = lines[0].distance(from: lines[0].startIndex, to: sessionsColumn.lowerBound)
        #expect(lines.dropFirst().allSatisfy { Array($0)[columnStart] == "0" }, "columns are aligned")

        let all = try latchctl("users", "list", "--json").jsonArray()
        #expect(Set(all.compactMap { $0["email"] as? String })
            == ["confirmed@example.com", "pending@example.com", "off@example.com"])
        #expect(all.allSatisfy { $0["password_hash"] == nil })
        let unconfirmed = try latchctl("users", "list", "--unconfirmed", "--json").jsonArray()
        #expect(unconfirmed.compactMap { $0["email"] as? String } == ["pending@example.com"])
        let disabled = try latchctl("users", "list", "--disabled", "--json").jsonArray()
        #expect(disabled.compactMap { $0["email"] as? String } == ["off@example.com"])
        #expect(try latchctl("users", "list", "--limit", "1", "--json").jsonArray().count == 1)
    }

    @Test func showConfirmAndUnknownUsers() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "dora@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let before = try latchctl("users", "show", "DORA@example.com", "--json").jsonObject()
        #expect(before["email"] as? String == "dora@example.com")
        #expect(before["confirmed_at"] is NSNull)
        #expect(before["live_sessions"] as? Int == 0)
        #expect(before["has_password"] as? Bool == true)
        #expect(try Self.signIn(app, "dora@example.com") == nil, "unconfirmed users cannot sign in")

        let confirmed = try latchctl("users", "confirm", "dora@example.com")
        #expect(confirmed.status == 0, "\(confirmed)")
        #expect(try Self.signIn(app, "dora@example.com") != nil)
        let shown = try latchctl("users", "show", "dora@example.com")
        #expect(shown.standardOutput.contains("live_sessions  1\n"))
        #expect(shown.standardOutput.contains("password       set\n"))
        #expect(!shown.standardOutput.contains("argon2"))

        for command in ["show", "confirm", "disable", "enable"] {
            let result = try latchctl("users", command, "ghost@example.com")
            #expect(result.status == 1, "users \(command) of an unknown user fails")
            #expect(result.standardError == "latchctl: no user with email ghost@example.com\n")
        }
    }

    /// Support's first question when a password "does not work": does the account have one at all?
    @Test func showSaysWhenAnAccountSignsInByMailOnly() throws {
        let app = try TestApp()
        defer { app.stop() }
        try CLILinkTests.signUp(app, "mailonly@example.com")
        let secret = SignInSecret()
        #expect(try app.requestEmailSignIn("mailonly@example.com", secret).status == 202)
        let mail = try app.signInMail(to: "mailonly@example.com")
        #expect(try app.verifyEmailSignIn(token: mail.token, secret: secret.secret).status == 200)
        let latchctl = Latchctl(databaseURL: app.database.url)
        #expect(try latchctl("users", "show", "mailonly@example.com", "--json").jsonObject()["has_password"] as? Bool
                == false)
        #expect(try latchctl("users", "show", "mailonly@example.com").standardOutput
                    .contains("password       none (signs in by mail)\n"))
    }

    @Test func disableRevokesSessionsAndEnableLetsTheUserSignInAgain() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        _ = try latchctl("users", "create", "eve@example.com", "--password-stdin", "--confirmed", stdin: Self.password)
        let access = try #require(try Self.signIn(app, "eve@example.com"))
        #expect(try Self.me(app, access) == 200)

        let disabled = try latchctl("users", "disable", "eve@example.com", "--json").jsonObject()
        #expect(disabled["revoked_sessions"] as? Int == 1)
        #expect(disabled["disabled_at"] is String)
        #expect(try Self.me(app, access) == 401, "the live session stopped working")
        #expect(try app.post("/v1/signin", #"{"email":"eve@example.com","password":"\#(Self.password)"}"#).status == 403)

        #expect(try latchctl("users", "enable", "eve@example.com").standardOutput == "enabled eve@example.com\n")
        #expect(try Self.signIn(app, "eve@example.com") != nil)
    }

    @Test func deleteRemovesSessionsAndTokensAndRefusesWithoutYesOffATerminal() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        _ = try latchctl("users", "create", "fay@example.com", "--password-stdin", "--confirmed", stdin: Self.password)
        _ = try #require(try Self.signIn(app, "fay@example.com"))
        #expect(try latchctl("link", "reset", "--email", "fay@example.com").status == 0)
        let id = try #require(try latchctl("users", "show", "fay@example.com", "--json").jsonObject()["id"] as? String)
        func rows(_ table: String) throws -> Int {
            try app.pool.query("SELECT count(*)::int8 FROM \(table) WHERE user_id = $1::uuid", [id]).first?
                .decode(Int.self, column: 0) ?? -1
        }
        #expect(try rows("sessions") == 1)
        #expect(try rows("refresh_tokens") == 1)
        #expect(try rows("auth_tokens") == 1)

        let refused = try latchctl("users", "delete", "fay@example.com")
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--yes"))
        #expect(try rows("sessions") == 1, "nothing deleted")

        let deleted = try latchctl("users", "delete", "fay@example.com", "--yes")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.standardOutput == "deleted fay@example.com (\(id))\n")
        for table in ["sessions", "refresh_tokens", "auth_tokens"] { #expect(try rows(table) == 0, "\(table)") }
        #expect(try app.pool.query("SELECT 1 FROM users WHERE id = $1::uuid", [id]).isEmpty)
        #expect(try latchctl("users", "delete", "fay@example.com", "--yes").status == 1)
        #expect(try app.count("SELECT count(*) FROM audit_log WHERE detail::text ILIKE '%fay@%'") == 0,
                "the audit keeps the id, not the address")
        #expect(try app.count("SELECT count(*) FROM outbox WHERE kind = 'account_deleted'") == 1)
    }

    @Test func setEmailMovesTheAccountAndShowListsPendingChanges() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        _ = try latchctl("users", "create", "gus@example.com", "--password-stdin", "--confirmed", stdin: Self.password)
        _ = try latchctl("users", "create", "hal@example.com", "--password-stdin", "--confirmed", stdin: Self.password)
        let access = try #require(try Self.signIn(app, "gus@example.com"))
        let asked = try app.post("/v1/email/change", fields: ["new_email": "gus.next@example.com", "password": Self.password],
                                 headers: [("Authorization", "Bearer \(access)")])
        #expect(asked.status == 202)
        let shown = try latchctl("users", "show", "gus@example.com", "--json").jsonObject()
        #expect(shown["pending_email_changes"] as? [String] == ["gus.next@example.com"])
        #expect(try latchctl("users", "show", "gus@example.com").standardOutput
            .contains("changing_to    gus.next@example.com\n"))

        let taken = try latchctl("users", "set-email", "gus@example.com", "HAL@example.com")
        #expect(taken.status == 1 && taken.standardError.contains("already exists"), "\(taken)")
        let moved = try latchctl("users", "set-email", "gus@example.com", "gus@new.example", "--confirmed")
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.standardOutput == "moved gus@example.com to gus@new.example (confirmed)\n")
        #expect(try Self.signIn(app, "gus@new.example") != nil)
        #expect(try Self.me(app, access) == 200, "sessions stay signed in")
        #expect(try latchctl("users", "show", "gus@new.example", "--json").jsonObject()["pending_email_changes"]
            as? [String] == [], "the pending change's link was superseded")
        #expect(try app.count("SELECT count(*) FROM audit_log WHERE event = 'email_changed' AND detail->>'actor' IS NOT NULL") == 1)
    }
}
