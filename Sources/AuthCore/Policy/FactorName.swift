import Foundation

/// A factor's name as shown in lists and mails: what the user typed, trimmed, without control or format
/// characters (a bidi override must not disguise one factor as another), at most 64 characters,
/// `fallback` ("Authenticator") when nothing is left. Passkeys' names follow the same rule.
public enum FactorName {
    public static let maxLength = 64
    public static let fallback = "Authenticator"

    public static func cleaned(_ raw: String?, fallback: String = fallback) -> String {
        let kept = (raw ?? "").unicodeScalars.filter {
            $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
        }
        let cleaned = String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? fallback : String(cleaned.prefix(maxLength))
    }
}
