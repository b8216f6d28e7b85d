import Foundation

/// One migration file, `NNNN_name.sql`: applied once, in version order, inside its own transaction.
public struct Migration: Sendable, Equatable {
    /// The number before the first underscore (`0001` -> 1); unique in a directory.
    public var version: Int
    /// The part after the number, without `.sql` (`init`).
    public var name: String
    /// The file name as found on disk (`0001_init.sql`), used in errors.
    public var fileName: String
    /// The SQL text; may hold several statements. It runs in a transaction, so it must not contain
    /// BEGIN/COMMIT or statements that refuse transactions (CREATE INDEX CONCURRENTLY, VACUUM).
    public var sql: String

    /// Creates a migration value (normally loaded from a directory).
    public init(version: Int, name: String, fileName: String, sql: String) {
        self.version = version
        self.name = name
        self.fileName = fileName
        self.sql = sql
    }

    /// Parses `NNNN_name.sql`; nil for any other name.
    static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_") else { return nil }
        let digits = fileName[..<underscore]
        let name = fileName[fileName.index(after: underscore)..<fileName.index(fileName.endIndex, offsetBy: -4)]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), !name.isEmpty,
            let version = Int(digits)
        else { return nil }
        return (version, String(name))
    }
}
