import Foundation

/// The three parts of a compact JWS (RFC 7515 §7.1), `header.payload.signature`, each base64url without padding.
/// Found by two scans for the dots, without copying or splitting the token: this runs on every bearer request.
struct CompactJWS {
    /// Longer than any token Latch writes (an email of 254 bytes makes ~900): anything longer is not ours.
    static let maxLength = 4096

    let header: Substring
    let payload: Substring
    let signature: Substring
    /// `header.payload`: what the signature covers.
    let signingInput: Substring

    /// nil unless `token` is three non-empty parts separated by dots. What the parts hold is checked when they are
    /// decoded (`decode`), or, for the header, by comparing it with the headers Latch writes.
    init?(_ token: String) {
        let bytes = token.utf8
        guard bytes.count <= Self.maxLength, let first = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let afterFirst = bytes.index(after: first)
        guard let second = bytes[afterFirst...].firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let afterSecond = bytes.index(after: second)
        guard !bytes[afterSecond...].contains(UInt8(ascii: ".")) else { return nil }
        header = token[..<first]
        payload = token[afterFirst..<second]
        signature = token[afterSecond...]
        signingInput = token[..<second]
        guard !header.isEmpty, !payload.isEmpty, !signature.isEmpty else { return nil }
    }

    /// Decodes one part, only in its canonical spelling (`Base64URL.decode`): the signature's encoding is not
    /// covered by the signature, so a second spelling of the same bytes must not pass as the same token.
    static func decode(_ part: Substring) -> Data? {
        Base64URL.decode(part)
    }
}
