import AuthCore
import Foundation

/// base64url (RFC 4648 §5) without padding: the token alphabet, safe unescaped in URLs and query items.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes as base64url with no `=` padding.
    ///
    /// Written out rather than built on `base64EncodedString` plus replacements: every session issues two tokens,
    /// and the Foundation route measured ~6 µs per token, most of a token's cost.
    public static func encode(_ data: Data) -> String {
        let bytes = [UInt8](data)
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let chunk = UInt32(bytes[index]) << 16
            for shift in [18, 12] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3F)]) }
        case 2:
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            for shift in [18, 12, 6] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3F)]) }
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url, in its canonical spelling only; nil for any character outside `A-Za-z0-9-_`, an
    /// impossible length, or unused low bits of the last character that are not zero (RFC 4648 §3.5 lets a decoder
    /// refuse those), so one byte string has exactly one text.
    ///
    /// Written out for the same reason as `encode`: a bearer check decodes two parts of a JWS, and Foundation's
    /// decoder after the alphabet swap measured ~20 µs each.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value = decodingTable[Int(byte)]
            guard value != invalid else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Six bits left over is a lone character (length 4n+1); any set bit left over is a second spelling.
        guard bits < 6, buffer == 0 else { return nil }
        return Data(output)
    }

    private static let invalid: UInt8 = 0xFF

    /// Each byte's value in the alphabet, `invalid` for every byte outside it.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}
