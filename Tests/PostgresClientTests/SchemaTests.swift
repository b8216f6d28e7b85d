import Foundation
import LatchTestSupport
import Testing

@testable import PostgresClient

/// The rules sql/0001_init.sql promises, checked against a migrated database.
@Suite struct SchemaTests {
    private func withMigrated(_ body: (PostgresPool) throws -> Void) throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        try body(pool)
    }

    private func insertUser(_ pool: PostgresPool, email: String) throws -> UUID {
        try #require(try pool.query(
            "INSERT INTO users (email, email_key, password_hash) VALUES ($1::text, lower($1::text), $2) RETURNING id",
            [email, "$argon2id$v=19$x"]
        ).scalar(UUID.self))
    }

    private func hash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    @Test func emailKeyIsUnique() throws {
        try withMigrated { pool throws in
            let id = try insertUser(pool, email: "Ann@Example.com")
            let error = #expect(throws: PostgresError.self) { _ = try insertUser(pool, email: "ann@EXAMPLE.com") }
            #expect(error?.isUniqueViolation == true)
            #expect(try pool.query("SELECT id FROM users WHERE email = $1", ["ANN@example.COM"]).scalar(UUID.self) == id)
        }
    }

    @Test func tokensAreCheckedAndCascadeWithTheirUser() throws {
        try withMigrated { pool throws in
            let user = try insertUser(pool, email: "bob@example.com")
            let insert = "INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')"
            try pool.query(insert, [hash(1), user, "confirm"])
            #expect(throws: PostgresError.self) { try pool.query(insert, [hash(2), user, "login"]) }
            // Only SHA-256 digests are stored: anything but 32 bytes is refused.
            let short = #expect(throws: PostgresError.self) { try pool.query(insert, [Data("raw-token".utf8), user, "reset"]) }
            #expect(short?.isCheckViolation == true)
            let session = try #require(try pool.query(
                """
                INSERT INTO sessions (user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id)
                VALUES ($1, $2, now() + interval '15 minutes', now() + interval '30 days', gen_random_uuid()) RETURNING id
                """, [user, hash(3)]
            ).scalar(UUID.self))
            try pool.query(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, expires_at)
                SELECT $1, id, family_id, user_id, now() + interval '30 days' FROM sessions WHERE id = $2
                """, [hash(4), session]
            )
            try pool.query("DELETE FROM users WHERE id = $1", [user])
            for table in ["auth_tokens", "sessions", "refresh_tokens"] {
                #expect(try pool.query("SELECT count(*) FROM \(unescaped: table)").scalar(Int.self) == 0, "\(table)")
            }
        }
    }

    @Test func updatedAtMovesOnUpdate() throws {
        try withMigrated { pool throws in
            let user = try insertUser(pool, email: "cy@example.com")
            try pool.query("UPDATE users SET updated_at = now() - interval '1 day' WHERE id = $1", [user])
            try pool.query("UPDATE users SET email_confirmed_at = now() WHERE id = $1", [user])
            let moved = try pool.query("SELECT updated_at > now() - interval '1 hour' FROM users WHERE id = $1", [user])
            #expect(try moved.scalar(Bool.self) == true)
        }
    }

    @Test func pendingOutboxRowsNeedBodiesAndSentRowsMayBeScrubbed() throws {
        try withMigrated { pool throws in
            let insert = "INSERT INTO outbox (kind, recipient, subject, text_body, html_body) VALUES ('confirm', 'a@b.c', 's', $1, $2) RETURNING id"
            #expect(throws: PostgresError.self) { try pool.query(insert, [String?.none, "<p>"]) }
            let id = try #require(try pool.query(insert, ["text", "<p>"]).scalar(Int.self))
            try pool.query(
                "UPDATE outbox SET sent_at = now(), text_body = NULL, html_body = NULL, deep_link = NULL WHERE id = $1", [id])
            let due = try pool.query(
                "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()")
            #expect(try due.scalar(Int.self) == 0)
        }
    }

    @Test func auditLogKeepsRowsAfterUserDeletion() throws {
        try withMigrated { pool throws in
            let user = try insertUser(pool, email: "dee@example.com")
            try pool.query(
                "INSERT INTO audit_log (user_id, event, ip, detail) VALUES ($1, 'signin.success', '127.0.0.1', $2)",
                [user, PostgresJSON(text: #"{"ua":"test"}"#)])
            try pool.query("DELETE FROM users WHERE id = $1", [user])
            #expect(try pool.query("SELECT user_id FROM audit_log").scalar(UUID.self) == user)
        }
    }
}
