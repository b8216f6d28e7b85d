import Foundation

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
