/// Deterministic Message-IDs: the same outbox row always gets the same id, so a resend after a crash between
/// "sent" and "marked sent" is recognized as a duplicate by receiving servers and clients.
public enum MessageID {
    /// `<{token}@{domain}>`, the token from `MessageIDTokens` and nothing else: whatever is added here beside it
    /// (the row id, or an unkeyed hash of it, which can be reversed by trying every id) would tell a recipient how
    /// many mails the outbox queued for others. Characters outside `A-Za-z0-9-_` in the token, and outside
    /// host-name characters in the domain, become `-`.
    public static func make(token: String, domain: String) -> String {
        let local = clean(token, allowing: "-_", limit: 64)
        let host = clean(domain, allowing: "-.", limit: 253)
        return "<\(local.isEmpty ? "-" : local)@\(host.isEmpty ? "localhost" : host)>"
    }

    private static func clean(_ text: String, allowing extra: String, limit: Int) -> String {
        let kept = text.unicodeScalars.prefix(limit).map { scalar -> Character in
            let isAlphanumeric = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            return isAlphanumeric || extra.unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        }
        return String(kept)
    }
}
