import Foundation

/// The short code beside every mailed link, for typing into the app on another device or past a link scanner.
/// Implemented in LatchCrypto (`HMACOneTimeCodes`).
///
/// A code has only 10^8 values, so a digest anyone can compute would give it away to whoever reads the database:
/// codes are stored as an HMAC under a key derived from the server secret, which the database never holds, and
/// the HMAC binds the code to its user and purpose, so a code is worth nothing for another account or flow.
public protocol OneTimeCodes: Sendable {
    /// `OneTimeCode.length` decimal digits from the CSPRNG, uniform (no modulo bias).
    func makeCode() -> String
    /// The value stored for `code` of `userID`'s token of `purpose`.
    func digest(code: String, userID: UserID, purpose: TokenPurpose) -> Data
}

/// What a code looks like.
public enum OneTimeCode {
    public static let length = 8

    /// The code as typed, without the spaces and hyphens people put in (mails show `1234 5678`). Only those two
    /// (U+0020, U+002D) are separators, as openapi.yaml's pattern for `code` says; anything else makes the code
    /// malformed, a wrong code.
    public static func normalized(_ typed: String) -> String {
        String(typed.unicodeScalars.filter { $0 != " " && $0 != "-" }.map(Character.init))
    }

    /// Whether `text` could be a code: exactly `length` ASCII digits.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
