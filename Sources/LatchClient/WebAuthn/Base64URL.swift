import Foundation

/// Base64url without padding (RFC 4648 §5), the form WebAuthn's JSON (`Base64URLString`) carries bytes in.
enum Base64URL {
    /// The unpadded base64url text of `data`.
    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes `text` spells, or nil for padding, another alphabet, a length no encoding has, or bits left over
    /// in the last character: only the one text `encode` makes of some bytes is read, as the server reads it.
    static func decode(_ text: String) -> Data? {
        guard text.utf8.allSatisfy(isAlphabet), text.utf8.count % 4 != 1 else { return nil }
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), encode(data) == text else { return nil }
        return data
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

extension KeyedDecodingContainer {
    /// Bytes sent as unpadded base64url text.
    func decodeBase64URL(forKey key: Key) throws -> Data {
        let text = try decode(String.self, forKey: key)
        guard let data = Base64URL.decode(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                                                   debugDescription: "not unpadded base64url")
        }
        return data
    }

    /// Bytes sent as unpadded base64url text, when the key is there and not null.
    func decodeBase64URLIfPresent(forKey key: Key) throws -> Data? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeBase64URL(forKey: key)
    }
}

extension KeyedEncodingContainer {
    /// Bytes as unpadded base64url text.
    mutating func encodeBase64URL(_ data: Data, forKey key: Key) throws {
        try encode(Base64URL.encode(data), forKey: key)
    }

    /// Bytes as unpadded base64url text; the key left out for nil.
    mutating func encodeBase64URLIfPresent(_ data: Data?, forKey key: Key) throws {
        guard let data else { return }
        try encodeBase64URL(data, forKey: key)
    }
}
