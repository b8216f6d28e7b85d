import Foundation

/// Where a page of `GET /admin/v1/users` ends: the last user's (created_at, id), the key the pages are ordered by.
///
/// Opaque to clients: base64url of `<microseconds since 1970>.<lowercase uuid>`. Microseconds, as an integer, are
/// PostgreSQL's own precision, so the cursor names the exact row and a page starts right after it (a `Date` would
/// round). A cursor that does not decode is refused, never read as "from the start".
public struct AdminUserCursor: Hashable, Sendable {
    /// `created_at` in whole microseconds since 1970.
    public var createdAtMicroseconds: Int64
    public var id: UserID

    public init(createdAtMicroseconds: Int64, id: UserID) {
        self.createdAtMicroseconds = createdAtMicroseconds
        self.id = id
    }

    /// The cursor of a row created at `createdAt` (rounded to PostgreSQL's microseconds).
    public init(createdAt: Date, id: UserID) {
        self.init(createdAtMicroseconds: Self.microseconds(createdAt), id: id)
    }

    /// The cursor's text, or nil when `text` is not one this type printed (too long, another alphabet, no uuid).
    public init?(text: String) {
        guard text.utf8.count <= 96, let bytes = Base64URLText.decode(text),
              let plain = String(data: bytes, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let micros = Int64(parts[0]), String(micros) == parts[0],
              parts[1].utf8.count == 36, parts[1] == parts[1].lowercased(), let uuid = UUID(uuidString: String(parts[1]))
        else { return nil }
        self.init(createdAtMicroseconds: micros, id: UserID(uuid))
    }

    public var text: String {
        Base64URLText.encode(Data("\(createdAtMicroseconds).\(id.rawValue.uuidString.lowercased())".utf8))
    }

    /// `date` in whole microseconds since 1970, as PostgreSQL stores a timestamptz.
    public static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
