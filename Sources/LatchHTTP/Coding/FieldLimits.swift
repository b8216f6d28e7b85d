/// Upper bounds on request strings, checked right after decoding so an oversized password never reaches Argon2
/// and an oversized token never reaches the database. Generous: real values are far shorter.
///
/// openapi.yaml states the same bounds (`maxLength`, and a `pattern` that excludes NUL). Email, token and code are
/// ASCII by their documented patterns, so their bounds in bytes are bounds in characters too; a password or a device
/// token may hold any character but NUL, so their bounds are counted in characters, as `maxLength` counts.
enum FieldLimits {
    /// RFC 5321's path limit, as AuthCore's `EmailAddress`.
    static let emailBytes = 254
    /// Far above the 128-character policy, so policy errors stay `weak_password`; this only stops abuse. Counted
    /// in characters (Unicode code points) for JSON bodies.
    static let passwordCharacters = 1024
    /// The landing page's password field, in bytes (at most 4 bytes per character of the 128-character policy
    /// is 512).
    static let passwordBytes = 1024
    /// Tokens are 43 base64url characters.
    static let tokenBytes = 512
    /// A device token is read whatever it holds (an unknown one counts as none), so its bound is in characters.
    static let deviceTokenCharacters = 512
    /// Codes are 8 digits, perhaps typed with spaces.
    static let codeBytes = 32

    /// Throws if `value` is over `maxBytes` UTF-8 bytes or holds a NUL.
    static func check(_ value: String, field: String, maxBytes: Int) throws(APIError) {
        if value.utf8.count > maxBytes { throw .fieldTooLong(field, maxBytes: maxBytes) }
        if value.utf8.contains(0) { throw .fieldHasNUL(field) }
    }

    /// Throws if `value` is over `maxCharacters` Unicode code points or holds a NUL.
    static func check(_ value: String, field: String, maxCharacters: Int) throws(APIError) {
        if value.unicodeScalars.count > maxCharacters { throw .fieldTooManyCharacters(field, maxCharacters: maxCharacters) }
        if value.utf8.contains(0) { throw .fieldHasNUL(field) }
    }

    /// A name (of a factor, of a passkey): 1 to `maxCharacters` code points, no NUL, as openapi.yaml's
    /// `minLength: 1`. AuthCore then trims it and drops control characters; what is left empty gets the default.
    static func checkName(_ value: String, field: String, maxCharacters: Int) throws(APIError) {
        if value.isEmpty { throw .fieldEmpty(field) }
        try check(value, field: field, maxCharacters: maxCharacters)
    }
}
