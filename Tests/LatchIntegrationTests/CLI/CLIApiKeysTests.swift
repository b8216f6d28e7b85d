import Foundation
import Testing

/// `latchctl apikeys create|list|revoke` with the real binary: the key shown once and working on latchd's admin
/// listener, stored as SHA-256, listed without secrets, revoked for the next call, every change audited.
@Suite(.serialized) struct CLIApiKeysTests {
    @Test func aCreatedKeyWorksIsListedAndIsRevoked() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)

        let created = try latchctl("apikeys", "create", "support-tool", "--scopes", "users:read,links:issue",
                                   "--expires", "90d", "--actor", "ops-ana")
        #expect(created.status == 0, "\(created)")
        let lines = created.standardOutput.split(separator: "\n").map(String.init)
        let key = try #require(lines.first { $0.hasPrefix("key: ") }.map { String($0.dropFirst(5)) }, "\(created)")
        #expect(key.hasPrefix("latch_admin_") && key.utf8.count == "latch_admin_".count + 16 + 1 + 43)
        #expect(created.standardOutput.contains("shown only once"))
        #expect(lines.contains("scopes: links:issue,users:read"))
        let id = String(key.dropFirst("latch_admin_".count).prefix(16))
        #expect(try app.count("""
            SELECT count(*)::int8 FROM admin_api_keys
            WHERE id = $1 AND secret_hash = sha256(convert_to($2, 'UTF8')) AND scopes = 'links:issue users:read'
              AND expires_at > created_at + interval '89 days'
            """, [id, String(key.suffix(43))]) == 1, "stored as SHA-256 of the secret")

        #expect(try app.admin("GET", "/admin/v1/users", key: key).status == 200)

        let listed = try latchctl("apikeys", "list")
        #expect(listed.standardOutput.hasPrefix("NAME ") && listed.standardOutput.contains("support-tool"))
        #expect(!listed.standardOutput.contains(String(key.suffix(43))))
        let json = try latchctl("apikeys", "list", "--json").jsonArray()
        #expect(json.count == 1 && json.first?["id"] as? String == id)
        #expect(json.first?["scopes"] as? [String] == ["links:issue", "users:read"])
        #expect(json.first?["last_used_at"] as? String != nil, "the call above was recorded")

        let taken = try latchctl("apikeys", "create", "support-tool", "--scopes", "users:read")
        #expect(taken.status == 1 && taken.standardError.contains("exists already"), "\(taken)")
        let badScope = try latchctl("apikeys", "create", "other", "--scopes", "users:delete")
        #expect(badScope.status == 2 && badScope.standardError.contains("unknown scope users:delete"), "\(badScope)")
        let noScope = try latchctl("apikeys", "create", "other")
        #expect(noScope.status == 2, "\(noScope)")

        let revoked = try latchctl("apikeys", "revoke", id, "--actor", "ops-ana")
        #expect(revoked.status == 0 && revoked.standardOutput == "revoked admin API key \(id) (support-tool)\n",
                "\(revoked)")
        #expect(try app.admin("GET", "/admin/v1/users", key: key).status == 401)
        let twice = try latchctl("apikeys", "revoke", id)
        #expect(twice.status == 1, "\(twice)")

        let audit = try app.pool.query("""
            SELECT event || ' ' || (detail->>'actor') || ' ' || (detail->>'key_id') FROM audit_log
            WHERE event LIKE 'admin_api_key_%' ORDER BY id
            """).map { try $0.decode(String.self, column: 0) }
        #expect(audit == ["admin_api_key_created ops-ana \(id)", "admin_api_key_revoked ops-ana \(id)"])
    }
}
