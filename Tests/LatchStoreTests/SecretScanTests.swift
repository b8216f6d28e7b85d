import AuthCore
import Foundation
import LatchStore
import PostgresClient
import Testing

/// ARCHITECTURE.md, security rule 2: after a whole flow and once its mail is sent, no column of any table holds a raw token; the
/// tables hold only SHA-256 digests.
@Suite("Secret scan of every table")
struct SecretScanTests {
    /// Every column that could hold a token as text or bytes.
    func scannedColumns(_ fixture: StoreFixture) throws -> [(table: String, column: String, isBytea: Bool)] {
        try fixture.pool.query("""
            SELECT c.table_name, c.column_name, c.data_type = 'bytea'
            FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
              AND (c.data_type IN ('text', 'character varying', 'bytea', 'jsonb', 'json')
                   OR c.udt_name = 'citext')
            ORDER BY 1, 2
            """).map { try $0.decode((String, String, Bool).self) }
    }

    /// `table.column` of every place `raw` occurs, as text or as its UTF-8 bytes. Identifiers come from the catalog,
    /// quoted; the token is a parameter.
    func occurrences(of raw: String, _ fixture: StoreFixture) throws -> [String] {
        try scannedColumns(fixture).compactMap { table, column, isBytea in
            let sql = isBytea
                ? "SELECT count(*) FROM \"\(table)\" WHERE position($1::bytea in \"\(column)\") > 0"
                : "SELECT count(*) FROM \"\(table)\" WHERE strpos(\"\(column)\"::text, $1::text) > 0"
            let value: any PostgresBindable = isBytea ? Data(raw.utf8) : raw
            return try fixture.count(sql, [value]) > 0 ? "\(table).\(column)" : nil
        }
    }

    func containsDigest(_ digest: Data, _ fixture: StoreFixture) throws -> Bool {
        try scannedColumns(fixture).filter(\.isBytea).contains { table, column, _ in
            try fixture.count("SELECT count(*) FROM \"\(table)\" WHERE \"\(column)\" = $1", [digest]) > 0
        }
    }

    @Test func noRawTokenSurvivesAFullFlowOnlyDigests() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let store = fixture.store
        let (user, confirmToken) = try fixture.makeUser("ann@example.com")
        try store.record(AuditEvent(name: .signUp, at: fixture.t0, userID: user.id, ip: "203.0.113.9",
                                    detail: ["email": user.email]))

        let first = fixture.credentials(now: fixture.at(10))
        let sessionID = SessionID()
        _ = try #require(try store.completeConfirmation(.link(hash: fixture.tokens.digest(confirmToken)), now: fixture.at(10), sessionID: sessionID,
            credentials: first.credentials, audit: nil).value)
        try store.record(AuditEvent(name: .emailConfirmed, at: fixture.at(10), userID: user.id, ip: nil,
                                    detail: ["session_id": sessionID.description]))
        let second = fixture.credentials(now: fixture.at(20))
        _ = try store.rotateRefreshToken(presentedHash: fixture.tokens.digest(first.refresh),
                                         successor: second.credentials, now: fixture.at(20))
        let (resetToken, reset) = fixture.newToken(for: user.id, email: user.email, purpose: .reset,
                                                   createdAt: fixture.at(30))
        try store.issueToken(reset)
        _ = try #require(try store.completePasswordReset(PasswordResetCompletion(
            key: .link(hash: reset.hash), userID: user.id, newPasswordHash: "$argon2id$v=19$m=8,t=1,p=1$bmV3$bmV3",
            now: fixture.at(40), mail: fixture.mail(.passwordChanged, to: user.email))).value)
        try store.record(AuditEvent(name: .passwordReset, at: fixture.at(40), userID: user.id, ip: nil,
                                    detail: ["revoked_sessions": "1"]))
        let raws = [confirmToken, first.access, first.refresh, second.access, second.refresh, resetToken]

        // Until sent, the mails hold their tokens: the scan sees them (so it can fail).
        #expect(try occurrences(of: confirmToken, fixture) == ["outbox.deep_link", "outbox.html_body", "outbox.text_body"])
        #expect(try occurrences(of: resetToken, fixture).count == 3)

        for item in try fixture.queue.claimDue(limit: 10, now: fixture.at(50), leaseUntil: fixture.at(100)) {
            try fixture.queue.markSent(id: item.id, at: fixture.at(51))
        }
        for raw in raws {
            #expect(try occurrences(of: raw, fixture) == [], "raw token found")
        }
        // Rotation replaced the first access token's digest; every other token is kept as its digest only.
        for raw in raws where raw != first.access {
            #expect(try containsDigest(fixture.tokens.digest(raw), fixture), "digest stored")
        }
        #expect(try !containsDigest(fixture.tokens.digest(first.access), fixture))
        #expect(try scannedColumns(fixture).count > 20, "the scan covers the schema")
    }
}
