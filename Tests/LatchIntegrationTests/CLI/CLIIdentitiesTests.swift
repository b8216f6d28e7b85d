import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// `latchctl identities list|remove` against latchd's assembly: identities written as the store holds them (the
/// sign-ins themselves are `Apple/`'s tests), removals read back from PostgreSQL, the outbox, the provider jobs and
/// the audit log.
@Suite(.serialized) struct CLIIdentitiesTests {
    @discardableResult
    static func insertIdentity(_ app: TestApp, user: String, subject: String, privateEmail: Bool) throws -> String {
        let id = UUID().uuidString.lowercased()
        try app.sql("""
            INSERT INTO identities (id, user_id, provider, subject, client_id, email, email_verified, is_private_email,
                                    created_at, last_used_at)
            VALUES ($1::uuid, $2::uuid, 'apple', $3, 'com.example.app', 'x@privaterelay.appleid.com', true, $4,
                    now() - interval '1 day', now())
            """, [id, user, subject, privateEmail])
        return id
    }

    @Test func listShowsTheIdentitiesAndRemoveUnlinksMailsRevokesAndAudits() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let (id, tokens) = try CLIMfaTests.user(app, latchctl, "rae@example.com", sessions: 1)
        let (otherID, _) = try CLIMfaTests.user(app, latchctl, "sol@example.com", sessions: 0)
        let apple = try Self.insertIdentity(app, user: id, subject: "000111.secret-subject", privateEmail: true)
        let others = try Self.insertIdentity(app, user: otherID, subject: "000222.other", privateEmail: false)
        // A refresh token held for revocation, as the exchange job leaves it.
        try app.sql("""
            INSERT INTO provider_jobs (id, state, provider, client_id, identity_id, sealed_token, due_at, created_at)
            VALUES (gen_random_uuid(), 'held', 'apple', 'com.example.app', $1::uuid, '\\x01'::bytea, now(), now())
            """, [apple])

        let table = try latchctl("identities", "list", "RAE@example.com")
        #expect(table.status == 0, "\(table)")
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "a header and one identity: \(table.standardOutput)")
        #expect(lines[1].hasPrefix(apple) && lines[1].contains("  apple  ") && lines[1].contains("  yes  "))
        #expect(!table.standardOutput.contains("secret-subject"), "the provider's subject is not shown")
        let listed = try latchctl("identities", "list", "rae@example.com", "--json").jsonObject()
        #expect((listed["identities"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [apple])

        let unknown = try latchctl("identities", "remove", "rae@example.com", "--id", others)
        #expect(unknown.status != 0 && unknown.standardError.contains("has no linked identity"), "\(unknown)")
        let bad = try latchctl("identities", "remove", "rae@example.com", "--id", "nope")
        #expect(bad.status != 0, "\(bad)")

        let removed = try latchctl("identities", "remove", "rae@example.com", "--id", apple, "--actor", "support-kim")
        #expect(removed.status == 0, "\(removed)")
        #expect(try app.count("SELECT count(*)::int8 FROM identities") == 1)
        #expect(try app.count("SELECT count(*)::int8 FROM provider_jobs WHERE state = 'revoke' AND identity_id IS NULL") == 1)
        #expect(try app.outboxCount(to: "rae@example.com", kind: .identityRemoved) == 1)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'identity_removed' AND user_id = $1::uuid
                AND detail->>'actor' = 'support-kim' AND detail->>'source' = 'latchctl'
            """, [id]) == 1)
        for token in tokens { #expect(try CLIUserTests.me(app, token) == 200) }
        let empty = try latchctl("identities", "list", "rae@example.com")
        #expect(empty.standardOutput == "rae@example.com has no linked identities\n")
    }
}
