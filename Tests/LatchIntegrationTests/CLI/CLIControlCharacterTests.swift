import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// latchctl prints values that came from clients (user agents, addresses, audit details). Rows stored before the
/// API refused control characters still hold them, so latchctl must show them escaped, never send them to the
/// operator's terminal: an ESC sequence could clear the screen or retitle the window, CR/LF could forge a row,
/// and U+202E could reverse what is shown.
@Suite struct CLIControlCharacterTests {
    static let userAgent = "Mozilla/5.0\u{1B}[2J\u{1B}]0;pwned\u{07}\r\nID  live  forged\t\u{202E}exe.txt\u{7F}\u{9B}31m\u{2028}\u{200B}end"
    static let ip = "10.0.0.1\u{1B}[31m"
    static let event = "session_revoked\u{1B}[8m"

    /// No byte below 0x20 but the newlines latchctl writes, no ESC, and none of the invisible controls.
    static func expectNoControls(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(output.utf8)
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A }, "\(bytes.filter { $0 < 0x20 && $0 != 0x0A })",
                sourceLocation: sourceLocation)
        #expect(!bytes.contains(0x1B), sourceLocation: sourceLocation)
        let invisible = output.unicodeScalars.filter {
            (0x7F...0x9F).contains($0.value) || ["\u{202E}", "\u{2028}", "\u{200B}"].contains($0)
        }
        #expect(invisible.isEmpty, "\(invisible.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    @Test func sessionsAndAuditShowControlCharactersEscaped() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let latchctl = Latchctl(databaseURL: database.url)
        let created = try latchctl("users", "create", "zed@example.com", "--password-stdin", "--confirmed",
                                   stdin: CLIUserTests.password)
        #expect(created.status == 0, "\(created)")
        // Written directly, as an old row would be: the product itself no longer stores such values.
        let pool = database.makePool(maxConnections: 1)
        defer { pool.close() }
        try pool.query("""
            INSERT INTO sessions (user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                  user_agent, ip)
            SELECT id, sha256('control-characters'::bytea), now() + interval '15 minutes', now() + interval '30 days',
                   gen_random_uuid(), $2, $3
            FROM users WHERE email = $1
            """, ["zed@example.com", Self.userAgent, Self.ip])
        try pool.query("""
            INSERT INTO audit_log (user_id, event, ip, detail)
            SELECT id, $2, $3, jsonb_build_object('user_agent', $4::text, $4::text, 'x')
            FROM users WHERE email = $1
            """, ["zed@example.com", Self.event, Self.ip, Self.userAgent])

        let table = try latchctl("sessions", "list", "zed@example.com")
        #expect(table.status == 0, "\(table)")
        Self.expectNoControls(table.standardOutput)
        #expect(table.standardOutput.contains(#"Mozilla/5.0\u{1B}[2J\u{1B}]0;pwned\u{7}\u{D}\u{A}ID  live  forged\u{9}"#))
        #expect(table.standardOutput.contains(#"\u{202E}exe.txt\u{7F}\u{9B}31m\u{2028}\u{200B}end"#))
        #expect(table.standardOutput.split(separator: "\n").count == 2, "a header and one row: \(table.standardOutput)")

        let audit = try latchctl("audit", "--email", "zed@example.com")
        #expect(audit.status == 0, "\(audit)")
        Self.expectNoControls(audit.standardOutput)
        #expect(audit.standardOutput.contains(#"session_revoked\u{1B}[8m"#))

        // JSON escapes them too, and any JSON parser reads back exactly what is stored.
        let json = try latchctl("sessions", "list", "zed@example.com", "--json")
        Self.expectNoControls(json.standardOutput)
        let session = try #require(try json.jsonArray().first)
        #expect(session["user_agent"] as? String == Self.userAgent)
        #expect(session["ip"] as? String == Self.ip)

        let auditJSON = try latchctl("audit", "--email", "zed@example.com", "--json")
        Self.expectNoControls(auditJSON.standardOutput)
        let entry = try #require(try auditJSON.jsonArray().first)
        #expect(entry["event"] as? String == Self.event)
        #expect((entry["detail"] as? [String: Any])?["user_agent"] as? String == Self.userAgent)
    }
}
