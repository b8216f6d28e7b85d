/// An address shown to whoever holds a link: enough to recognise one's own, not enough to learn someone else's.
enum EmailMask {
    /// The local part's first character and the domain: `alice@example.com` → `a•••@example.com`.
    static func mask(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@"), at > email.startIndex else { return "•••" }
        return String(email[email.startIndex]) + "•••" + email[at...]
    }
}
