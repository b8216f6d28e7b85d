/// Why the migrator refused to run or stopped. Each case names the file involved.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The migrations directory could not be listed or a file could not be read.
    case unreadable(path: String, reason: String)
    /// A `.sql` file whose name is not `NNNN_name.sql`.
    case invalidFileName(String)
    /// Two files share a version number.
    case duplicateVersion(Int, files: [String])
    /// A file that was applied has changed since: its SHA-256 differs from the recorded one.
    case checksumMismatch(file: String, recorded: String, current: String)
    /// A migration recorded as applied has no file any more.
    case missingFile(version: Int, name: String)
    /// The file's SQL failed; its transaction was rolled back and nothing of it was applied.
    case failed(file: String, error: PostgresError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read migrations at \(path): \(reason)"
        case .invalidFileName(let file):
            return "migration file \(file) is not named NNNN_name.sql"
        case .duplicateVersion(let version, let files):
            return "migration version \(version) is used by several files: \(files.joined(separator: ", "))"
        case .checksumMismatch(let file, let recorded, let current):
            return "migration \(file) was changed after it was applied (sha256 \(recorded) recorded, \(current) now)"
        case .missingFile(let version, let name):
            return "migration \(version) (\(name)) was applied but its file is missing"
        case .failed(let file, let error):
            return "migration \(file) failed: \(error)"
        }
    }
}
