import Foundation
import PostgresClient

/// Searches every text-like, jsonb and bytea column of every table in the public schema for a secret: as text,
/// as its UTF-8 bytes, and (for base64url tokens) as the 32 raw bytes it encodes.
struct SecretScanner {
    let pool: PostgresPool

    struct Column: Hashable, CustomStringConvertible {
        let table: String
        let name: String
        let isBytea: Bool
        var description: String { "\(table).\(name)" }
    }

    func columns() throws -> [Column] {
        let rows = try pool.query("""
            SELECT c.table_name::text, c.column_name::text, c.data_type::text
            FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
              AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')
                   OR c.udt_name = 'citext')
            ORDER BY 1, 2
            """)
        return try rows.map { row in
            Column(table: try row.decode(String.self, column: 0), name: try row.decode(String.self, column: 1),
                   isBytea: try row.decode(String.self, column: 2) == "bytea")
        }
    }

    /// The columns holding `secret` in any of its forms.
    func columns(holding secret: String, among columns: [Column]) throws -> [Column] {
        // Only a full 256-bit token is searched as raw bytes: a few bytes could match a digest by chance.
        let raw = Self.base64URLDecoded(secret).flatMap { $0.count == 32 ? $0 : nil }
        let rawHex = raw.map { $0.map { String(format: "%02x", $0) }.joined() } ?? ""
        return try columns.filter { column in
            // Identifiers come from the catalog, not from input; quoted all the same.
            let table = "\"\(column.table.replacingOccurrences(of: "\"", with: "\"\""))\""
            let name = "\"\(column.name.replacingOccurrences(of: "\"", with: "\"\""))\""
            let sql = column.isBytea
                ? "SELECT count(*)::int8 FROM \(table) WHERE position(convert_to($1, 'UTF8') IN \(name)) > 0"
                    + " OR ($2 <> '' AND position(decode($2, 'hex') IN \(name)) > 0)"
                : "SELECT count(*)::int8 FROM \(table) WHERE strpos(\(name)::text, $1) > 0"
                    + " OR ($2 <> '' AND strpos(\(name)::text, $2) > 0)"
            return try (pool.query(sql, [secret, rawHex]).scalar(Int.self) ?? 0) > 0
        }
    }

    /// The bytes of an unpadded base64url string, or nil when it is not one.
    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
