import Foundation

/// A session's identifier, which is also its refresh-token *family*: every refresh token rotated out of one sign-in
/// carries the same SessionID, so a reused token can revoke the whole family at once.
public struct SessionID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UUID

    public init(_ rawValue: UUID = UUID()) { self.rawValue = rawValue }

    /// Decodes a uuid string in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let uuid = UUID(uuidString: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a uuid")
        }
        rawValue = uuid
    }

    /// Encodes the lowercase form PostgreSQL prints (Foundation's default is uppercase).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public var description: String { rawValue.uuidString.lowercased() }
}
