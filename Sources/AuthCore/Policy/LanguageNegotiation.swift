import Foundation

/// Picks the language of a user's mail and pages among the available locales: RFC 4647 §3.4 Lookup over the
/// ranges of an `Accept-Language` header in the order of their q-values (RFC 9110 §12.5.4).
public struct LanguageNegotiation: Hashable, Sendable {
    /// The locales there are templates for, the default first.
    public let available: [String]

    /// - Parameter available: BCP 47 tags, the default first; must not be empty.
    public init(available: [String]) {
        precondition(!available.isEmpty, "at least the default locale")
        self.available = available
    }

    public var defaultLocale: String { available[0] }

    /// The locale for a request: the first range (by q-value, then order) whose Lookup finds an available locale,
    /// else the default. Malformed ranges, `*` and ranges of q=0 are skipped; the header never causes an error.
    public func locale(acceptLanguage header: String?) -> String {
        for range in Self.ranges(header ?? "") {
            if let found = lookup(range) { return found }
        }
        return defaultLocale
    }

    /// An explicitly chosen tag (`locale` at sign-up, `PATCH /v1/me`): the available locale Lookup finds for it
    /// (`de-CH` finds `de`), nil when there is none.
    public func supported(_ tag: String) -> String? {
        guard Self.isWellFormed(tag) else { return nil }
        return lookup(tag)
    }

    /// RFC 4647 §3.4: the range, then the range with its last subtag removed (and a single-character subtag left
    /// before it, so `zh-Hant-x-a` is not tried as `zh-Hant-x`), until one matches an available tag. Case does not
    /// matter; the available tag is answered as configured.
    func lookup(_ range: String) -> String? {
        var subtags = range.split(separator: "-").map(String.init)
        while !subtags.isEmpty {
            let candidate = subtags.joined(separator: "-")
            if let found = available.first(where: { $0.caseInsensitiveCompare(candidate) == .orderedSame }) {
                return found
            }
            subtags.removeLast()
            if subtags.last?.count == 1 { subtags.removeLast() }
        }
        return nil
    }

    /// The ranges of an `Accept-Language` header, highest q first, the header's order among equals.
    static func ranges(_ header: String) -> [String] {
        var weighted: [(range: String, q: Double, index: Int)] = []
        for (index, item) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first, range != "*", isWellFormed(range) else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), (0...1).contains(value), pair[1].count <= 5 else { q = -1; break }
                q = value
            }
            if q > 0 { weighted.append((range, q, index)) }
        }
        return weighted.sorted { ($0.q, -$0.index) > ($1.q, -$1.index) }.map(\.range)
    }

    /// `1*8ALPHA *("-" 1*8alphanum)`, at most 35 characters: a language range RFC 4647 §2.1 allows (without `*`).
    public static func isWellFormed(_ tag: String) -> Bool {
        guard tag.count <= 35 else { return false }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (1...8).contains(first.count),
              first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
