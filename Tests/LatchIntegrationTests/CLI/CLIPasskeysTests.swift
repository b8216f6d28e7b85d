import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// `latchctl passkeys list|remove` against latchd's assembly: passkeys written as the store holds them (the
/// ceremonies themselves are `Passkeys/`' tests), removals read back from PostgreSQL, the outbox and the audit log.
@Suite(.serialized) struct CLIPasskeysTests {
    /// A passkey row as the store writes one; latchctl never reads the key.
    @discardableResult
    static func insertPasskey(_ app: TestApp, user: String, name: String, synced: Bool) throws -> String {
        let id = UUID().uuidString.lowercased()
        try app.sql("""
            INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, backup_eligible,
                                  backed_up, transports, aaguid, name, created_at)
            VALUES ($1::uuid, $2::uuid, uuid_send(gen_random_uuid()), '\\xa5'::bytea, -7, 0, $3, $3, 'internal',
                    decode(repeat('00', 16), 'hex'), $4, now() - interval '1 day')
            """, [id, user, synced, name])
        return id
    }

    static func passkeys(_ app: TestApp, of user: String) throws -> Int {
        try app.count("SELECT count(*)::int8 FROM passkeys WHERE user_id = $1::uuid", [user])
    }

    @Test func listShowsThePasskeysAndRemoveTakesOneOrAllMailsAndAudits() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let (id, tokens) = try CLIMfaTests.user(app, latchctl, "pia@example.com", sessions: 1)
        let (otherID, _) = try CLIMfaTests.user(app, latchctl, "quin@example.com", sessions: 0)
        let phone = try Self.insertPasskey(app, user: id, name: "Phone", synced: true)
        let key = try Self.insertPasskey(app, user: id, name: "Security key", synced: false)
        try Self.insertPasskey(app, user: otherID, name: "Laptop", synced: true)

        let table = try latchctl("passkeys", "list", "PIA@example.com")
        #expect(table.status == 0, "\(table)")
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "a header and two passkeys: \(table.standardOutput)")
        #expect(lines[0].hasPrefix("ID  ") && lines[0].contains("  NAME  ") && lines[0].hasSuffix("LAST_USED_AT"))
        #expect(lines[1].hasPrefix(phone) && lines[1].contains("  Phone  ") && lines[1].contains("  yes  "))
        #expect(lines[2].hasPrefix(key) && lines[2].contains("  Security key  ") && lines[2].contains("  no  "))
        let listed = try latchctl("passkeys", "list", "pia@example.com", "--json").jsonObject()
        let rows = try #require(listed["passkeys"] as? [[String: Any]])
        #expect(rows.compactMap { $0["id"] as? String } == [phone, key], "oldest first")
        #expect(rows.allSatisfy { $0["public_key"] == nil && $0["credential_id"] == nil })

        // Neither an unknown id nor another user's passkey is removed.
        let unknown = try latchctl("passkeys", "remove", "pia@example.com", "--id", UUID().uuidString)
        #expect(unknown.status != 0 && unknown.standardError.contains("has no passkey"), "\(unknown)")
        let bad = try latchctl("passkeys", "remove", "pia@example.com", "--id", "nope")
        #expect(bad.status != 0, "\(bad)")
        let neither = try latchctl("passkeys", "remove", "pia@example.com")
        #expect(neither.status != 0, "--id or --all is required: \(neither)")
        #expect(try Self.passkeys(app, of: id) == 2)

        let one = try latchctl("passkeys", "remove", "pia@example.com", "--id", phone, "--actor", "support-kim")
        #expect(one.status == 0, "\(one)")
        #expect(one.standardOutput == "removed 1 passkey of pia@example.com; notice mail queued\n")
        #expect(try Self.passkeys(app, of: id) == 1)
        let all = try latchctl("passkeys", "remove", "pia@example.com", "--all", "--actor", "support-kim")
        #expect(all.status == 0, "\(all)")
        #expect(try Self.passkeys(app, of: id) == 0)
        #expect(try Self.passkeys(app, of: otherID) == 1)
        #expect(try app.outboxCount(to: "pia@example.com", kind: .passkeyRemoved) == 2)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'passkey_removed' AND user_id = $1::uuid
                AND detail->>'actor' = 'support-kim' AND detail->>'source' = 'latchctl'
            """, [id]) == 2)
        // Sessions stay: the owner may still hold the device.
        for token in tokens { #expect(try CLIUserTests.me(app, token) == 200) }
        let empty = try latchctl("passkeys", "list", "pia@example.com")
        #expect(empty.standardOutput == "pia@example.com has no passkeys\n")
    }
}
