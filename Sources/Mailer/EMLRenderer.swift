/// Renders a message as RFC 5322 text with a multipart/alternative (text, then HTML) body, for `.eml` files.
/// Real SMTP does not use this: curl's MIME API builds that message.
enum EMLRenderer {
    static func render(_ message: MailMessage) -> String {
        let boundary = "=_latch_" + stableSuffix(message.messageID)
        var lines = message.headerLines
        lines.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
        lines.append("")
        lines.append("This is a multi-part message in MIME format.")
        for (type, body) in [("text/plain", message.text), ("text/html", message.html)] {
            lines.append("--\(boundary)")
            lines.append("Content-Type: \(type); charset=utf-8")
            lines.append("Content-Transfer-Encoding: quoted-printable")
            lines.append("Content-Disposition: inline")
            lines.append("")
            lines.append(QuotedPrintable.encode(body))
        }
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A boundary that is the same for the same message (reproducible files) and cannot occur in
    /// quoted-printable output, which always escapes `=`, so `=_` never appears in a body.
    private static func stableSuffix(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
