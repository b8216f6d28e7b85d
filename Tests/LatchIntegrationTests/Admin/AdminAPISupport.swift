import AuthCore
import Foundation
import LatchTestSupport

/// Calls to the admin API of a `TestApp`, on its private listener, with keys made in-process by the daemon's own
/// service (latchctl's path is tested in `CLIApiKeysTests`).
extension TestApp {
    struct AdminOff: Error {}

    func adminKey(_ name: String, _ scopes: Set<AdminScope>, lifetime: TimeInterval? = nil) throws -> String {
        try AdminAPIKeys(service: application.service)
            .create(name: name, scopes: scopes, lifetime: lifetime, actor: "test").text.text
    }

    func admin(_ method: String, _ target: String, key: String?, json: String? = nil,
               headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        guard let port = application.adminPort else { throw AdminOff() }
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        let authorization = key.map { [("Authorization", "Bearer \($0)")] } ?? []
        if let json { return try client.sendJSON(method, target, json: json, headers: authorization + headers) }
        return try client.send(method, target, headers: authorization + headers)
    }

    /// Users made by SQL, `count` of them at one second apart from `start` (seeding by HTTP would hash each).
    func seedUsers(_ count: Int, prefix: String, start: Date = Date(timeIntervalSince1970: 1_800_000_000),
                   confirmed: Bool = true) throws {
        try pool.query("""
            INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at)
            SELECT gen_random_uuid(), $1::text || n || '@example.com', lower($1::text) || n || '@example.com', '!',
                   CASE WHEN $3::bool THEN $2::timestamptz END, $2::timestamptz + n * interval '1 second',
                   $2::timestamptz + n * interval '1 second'
            FROM generate_series(1, $4::int) AS n
            """, [prefix, start, confirmed, count])
    }
}
