import Foundation

/// The fields of an Argon2 PHC string: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
///
/// Parsing is strict (the shape libargon2 itself writes) so that `verify` can refuse anything odd before handing
/// it to C, and `needsRehash` can compare parameters without hashing.
public struct Argon2PHCString: Sendable, Hashable {
    /// `argon2id`, `argon2i` or `argon2d`.
    public let variant: String
    /// The `v=` value; 19 (0x13) for the current Argon2, 16 when the segment is absent.
    public let version: Int
    /// The `m=`, `t=`, `p=` values.
    public let memoryKiB: Int
    public let iterations: Int
    public let parallelism: Int
    /// Decoded salt and hash bytes.
    public let salt: Data
    public let hash: Data

    /// Parses `text`; nil if it is not a well-formed Argon2 PHC string within `Argon2Parameters`' bounds.
    public init?(parsing text: String) {
        var fields = text.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5 || fields.count == 6, fields.removeFirst().isEmpty else { return nil }
        variant = fields.removeFirst()
        guard ["argon2id", "argon2i", "argon2d"].contains(variant) else { return nil }
        if fields.count == 4 {
            guard let value = Self.field(fields.removeFirst(), key: "v") else { return nil }
            version = value
        } else {
            version = 16
        }
        let costs = fields[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard costs.count == 3,
              let memory = Self.field(costs[0], key: "m"),
              let time = Self.field(costs[1], key: "t"),
              let lanes = Self.field(costs[2], key: "p"),
              Argon2Parameters.problem(memoryKiB: memory, iterations: time, parallelism: lanes) == nil,
              let salt = Self.unpaddedBase64(fields[1]), salt.count >= 8,
              let hash = Self.unpaddedBase64(fields[2]), hash.count >= 4
        else { return nil }
        (memoryKiB, iterations, parallelism, self.salt, self.hash) = (memory, time, lanes, salt, hash)
    }

    /// `key=digits`, decimal without sign or leading zeros, small enough for a UInt32.
    private static func field(_ text: String, key: String) -> Int? {
        guard text.hasPrefix(key + "=") else { return nil }
        let digits = text.dropFirst(key.count + 1)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              digits == "0" || !digits.hasPrefix("0"),
              let value = Int(digits), value <= Int(UInt32.max)
        else { return nil }
        return value
    }

    /// Standard-alphabet base64 without padding, as PHC strings use.
    private static func unpaddedBase64(_ text: String) -> Data? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard !text.isEmpty, text.utf8.allSatisfy(alphabet.contains), text.utf8.count % 4 != 1 else { return nil }
        return Data(base64Encoded: text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4))
    }
}
