/// The `Accept-Language` header (RFC 9110 §12.5.4) every request carries: the device's preferred languages, most
/// preferred first, with descending q-values (`de-CH, de;q=0.9, en;q=0.8`). The server uses it only to pick the
/// language of an account made at sign-up and of mail to an address without an account; no answer depends on it.
enum AcceptLanguage {
    /// How many languages go: a server has templates for a handful, and a long list only costs bytes.
    static let maximumCount = 6
    /// The longest tag sent, as the server's limit on a BCP 47 tag.
    static let maximumTagLength = 35

    /// The header's value for `preferredLanguages` (as `Locale.preferredLanguages` lists them); nil when none of
    /// them is left after sanitizing, so no header goes.
    static func value(for preferredLanguages: [String]) -> String? {
        var tags: [String] = []
        for language in preferredLanguages {
            guard let tag = sanitized(language),
                  !tags.contains(where: { $0.lowercased() == tag.lowercased() }) else { continue }
            tags.append(tag)
            if tags.count == maximumCount { break }
        }
        guard !tags.isEmpty else { return nil }
        return tags.enumerated().map { index, tag in
            index == 0 ? tag : "\(tag);q=\(quality(thousandths: 1000 - 100 * index))"
        }.joined(separator: ", ")
    }

    /// A tag as a header may carry it: only `[A-Za-z0-9-]`, so nothing a device or a hostile profile puts in a
    /// language name (a line break, a `;q=`, a comma) can add a header or another entry. A POSIX locale's codeset
    /// and modifier go (`de_DE.UTF-8@euro` is `de-DE`), `_` becomes `-`, empty subtags go, and trailing subtags
    /// go while it is longer than `maximumTagLength`; nil when nothing is left.
    static func sanitized(_ language: String) -> String? {
        let name = language.prefix { $0 != "." && $0 != "@" }
        let kept = name.unicodeScalars.compactMap { scalar -> Character? in
            switch scalar.value {
            case 0x5F: "-"                                          // _
            case 0x2D, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: Character(scalar)  // - 0-9 A-Z a-z
            default: nil
            }
        }
        var subtags = String(kept).split(separator: "-")
        while !subtags.isEmpty, subtags.joined(separator: "-").count > maximumTagLength { subtags.removeLast() }
        return subtags.isEmpty ? nil : subtags.joined(separator: "-")
    }

    /// A q-value of at most three decimals, without trailing zeros (`0.9`, `0.85`, `0.125`; `1` and `0`).
    static func quality(thousandths: Int) -> String {
        let clamped = min(max(thousandths, 0), 1000)
        guard clamped % 1000 != 0 else { return String(clamped / 1000) }
        var decimals = String(clamped)
        while decimals.count < 3 { decimals = "0" + decimals }
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "0." + decimals
    }
}
