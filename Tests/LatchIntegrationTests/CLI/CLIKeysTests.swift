import Foundation
import Testing

/// `latchctl keys list|rotate|revoke` on the keys latchd made, each change audited with the operator's name.
@Suite(.serialized) struct CLIKeysTests {
    @Test func listRotateAndRevokeTheCurrentKey() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let first = try latchctl("keys", "list", "--json").jsonArray()
        #expect(first.count == 1)
        let original = try #require(first.first?["kid"] as? String)
        #expect(first.first?["state"] as? String == "current" && first.first?["algorithm"] as? String == "ES256")
        #expect(try app.publishedKids() == [original])

        let rotated = try latchctl("keys", "rotate")
        #expect(rotated.status == 0, "\(rotated)")
        let listed = try latchctl("keys", "list", "--json").jsonArray()
        let next = try #require(listed.first?["kid"] as? String)
        #expect(listed.compactMap { $0["state"] as? String } == ["next", "current"])
        #expect(rotated.standardOutput.hasPrefix("published key \(next); it becomes current at "))
        let again = try latchctl("keys", "rotate")
        #expect(again.status == 1)
        #expect(again.standardError.hasPrefix("latchctl: key \(next) is waiting to become current at "), "\(again)")

        let table = try latchctl("keys", "list").standardOutput
        #expect(table.hasPrefix("KID  ") && table.contains("STATE") && table.split(separator: "\n").count == 3)

        let revoked = try latchctl("keys", "revoke", original, "--actor", "support-kim")
        #expect(revoked.status == 0, "\(revoked)")
        #expect(revoked.standardOutput == "revoked key \(original); key \(next) is current now\n")
        let afterRevoke = try latchctl("keys", "list", "--json").jsonArray()
        #expect(afterRevoke.compactMap { $0["state"] as? String } == ["current", "revoked"], "\(afterRevoke)")

        let audit = try app.pool.query("""
            SELECT event, detail->>'kid', detail->>'actor', coalesce(detail->>'reason', detail->>'state')
            FROM audit_log WHERE event LIKE 'signing_key_%' ORDER BY id
            """).map { row in
            try (0..<4).map { try row.decode(String.self, column: $0) }.joined(separator: " ")
        }
        #expect(audit == [
            "signing_key_created \(original) latchd first_key",
            "signing_key_created \(next) opal rotation",
            "signing_key_revoked \(original) support-kim current",
            "signing_key_activated \(next) support-kim revoked_current",
        ])
    }

    @Test func refusalsSayWhy() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let unknown = try latchctl("keys", "revoke", "no-such-kid")
        #expect(unknown.status == 1 && unknown.standardError == "latchctl: no signing key no-such-kid\n")
        // A kid is base64url, so one in 32 starts with '-': it is the KID, not an unknown option, unless it names one.
        for dashed in ["-IaZvlNyQDe", "--IaZvlNyQDe", "--IaZ=vl"] {
            for arguments in [["keys", "revoke", dashed], ["keys", "revoke", "--", dashed]] {
                let result = try latchctl.run(arguments)
                #expect(result.status == 1 && result.standardError == "latchctl: no signing key \(dashed)\n", "\(result)")
            }
        }
        let optionFirst = try latchctl("keys", "revoke", "--actor", "kim", "-IaZvlNyQDe")
        #expect(optionFirst.standardError == "latchctl: no signing key -IaZvlNyQDe\n", "\(optionFirst)")
        #expect(try latchctl("keys", "revoke", "--actor").standardError.contains("--actor needs a value"))
        let kid = try #require(try latchctl("keys", "list", "--json").jsonArray().first?["kid"] as? String)
        #expect(try latchctl("keys", "revoke", kid).status == 0)
        let twice = try latchctl("keys", "revoke", kid)
        #expect(twice.status == 1 && twice.standardError == "latchctl: signing key \(kid) is revoked already\n")
        #expect(try latchctl("keys", "revoke").status == 2, "the KID is required")
        let anonymous = try latchctl("keys", "rotate", environment: ["USER": "", "LOGNAME": ""])
        #expect(anonymous.status == 2, "changes need an operator's name")
    }
}
