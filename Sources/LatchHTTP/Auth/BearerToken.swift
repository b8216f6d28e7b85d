import HTTPServer

/// Strict parsing of `Authorization: Bearer <token>` (RFC 6750 §2.1).
///
/// The scheme is case-insensitive, followed by exactly one space and a `b64token`
/// (`A–Z a–z 0–9 - . _ ~ + /`, then optional `=` padding) of at most 4096 bytes (an access token is a JWS of
/// under 1 KiB). No field, or another scheme, is "no credentials" (`missingToken`); a Bearer field of any other
/// shape, or two fields, is `malformedToken`, which is answered like a forged token without further work.
enum BearerToken {
    static let maxTokenBytes = 4096

    static func parse(_ headers: HTTPHeaders) throws(APIError) -> String {
        let fields = headers.values(for: "Authorization")
        guard let field = fields.first else { throw .missingToken }
        let bytes = Array(field.utf8)
        let schemeEnd = bytes.firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex
        // Basic, Digest, …: not ours, so no bearer credentials were sent.
        guard bytes[..<schemeEnd].map(asciiLower) == Array("bearer".utf8) else { throw .missingToken }
        guard fields.count == 1, schemeEnd < bytes.endIndex else { throw .malformedToken }
        let token = bytes[(schemeEnd + 1)...]
        guard token.count <= maxTokenBytes, isB64Token(token) else { throw .malformedToken }
        return String(decoding: token, as: UTF8.self)
    }

    private static func isB64Token(_ token: ArraySlice<UInt8>) -> Bool {
        let body = token.prefix { $0 != UInt8(ascii: "=") }
        let padding = token.dropFirst(body.count)
        return !body.isEmpty && body.allSatisfy(isTokenCharacter) && padding.allSatisfy { $0 == UInt8(ascii: "=") }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
             UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
