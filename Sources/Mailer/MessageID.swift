import AuthCore

/// Deterministic Message-IDs: the same outbox row always gets the same id, so a resend after a crash between
/// "sent" and "marked sent" is recognized as a duplicate by receiving servers and clients.
public enum MessageID {
    /// `<outbox-{id}.{16 hex}@{domain}>`. The hex part is FNV-1a over id, recipient and kind, so two rows that
    /// share a numeric id in different databases (staging, prod) still differ unless everything matches.
    /// Characters outside `A-Za-z0-9-` in the id, and outside host-name characters in the domain, become `-`.
    public static func make(outboxID: String, recipient: String, kind: MailKind, domain: String) -> String {
        let id = clean(outboxID, allowing: "-", limit: 64)
        let host = clean(domain, allowing: "-.", limit: 253)
        let digest = fnv1a("\(outboxID)\n\(recipient.lowercased())\n\(kind.rawValue)")
        let hex = String(digest, radix: 16)
        let padded = String(repeating: "0", count: 16 - hex.count) + hex
        return "<outbox-\(id).\(padded)@\(host.isEmpty ? "localhost" : host)>"
    }

    private static func clean(_ text: String, allowing extra: String, limit: Int) -> String {
        let kept = text.unicodeScalars.prefix(limit).map { scalar -> Character in
            let isAlphanumeric = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            return isAlphanumeric || extra.unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        }
        return String(kept)
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
