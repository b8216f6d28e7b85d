/// Upper bounds on request strings, checked right after decoding so an oversized password never reaches Argon2
/// and an oversized token never reaches the database. Generous: real values are far shorter.
enum FieldLimits {
    /// RFC 5321's path limit, as AuthCore's `EmailAddress`.
    static let emailBytes = 254
    /// Far above the 128-character policy (4 bytes per character at most is 512), so policy errors stay
    /// `weak_password`; this only stops abuse.
    static let passwordBytes = 1024
    /// Tokens are 43 base64url characters.
    static let tokenBytes = 512
    /// Codes are 8 digits, perhaps typed with spaces.
    static let codeBytes = 32

    /// Throws if `value` is over `maxBytes` UTF-8 bytes or holds a NUL.
    static func check(_ value: String, field: String, maxBytes: Int) throws(APIError) {
        if value.utf8.count > maxBytes { throw .fieldTooLong(field, maxBytes: maxBytes) }
        if value.utf8.contains(0) { throw .fieldHasNUL(field) }
    }
}
