import Foundation
import HTTPServer

/// A request's query for the admin API, as strict as its JSON bodies: only the endpoint's parameters, each at most
/// once, else 400 `invalid_query` (`AdminQueryError`).
struct AdminQuery {
    private let values: [String: String]

    /// - Parameter allowed: every parameter the endpoint takes (none: the query must be empty).
    init(_ request: HTTPRequest, allowed: [String]) throws(AdminQueryError) {
        var values: [String: String] = [:]
        for item in request.queryItems {
            guard allowed.contains(item.name) else { throw .unknownParameter(expected: allowed) }
            guard values[item.name] == nil else { throw .repeatedParameter(item.name) }
            values[item.name] = item.value
        }
        self.values = values
    }

    /// The parameter's value as sent (`email=` is an empty address, not no filter).
    subscript(_ name: String) -> String? {
        values[name]
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(AdminQueryError) -> Int? {
        guard let text = self[name] else { return nil }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.utf8.count <= 6, let value = Int(text),
              range.contains(value)
        else { throw .invalidParameter(name) }
        return value
    }

    /// An RFC 3339 instant (`2025-01-31T12:00:00Z`, fractions of a second allowed).
    func instant(_ name: String) throws(AdminQueryError) -> Date? {
        guard let text = self[name] else { return nil }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else { throw .invalidParameter(name) }
        return date
    }

    /// A value of at most `maxBytes` UTF-8 bytes without NUL (PostgreSQL text holds none).
    func text(_ name: String, maxBytes: Int) throws(AdminQueryError) -> String? {
        guard let text = self[name] else { return nil }
        guard text.utf8.count <= maxBytes, !text.utf8.contains(0) else { throw .invalidParameter(name) }
        return text
    }

    /// The query of the next page: these parameters (in `names`' order) with `cursor` replaced, percent-encoded.
    func nextPageQuery(_ names: [String], cursor: String) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        unreserved.insert(charactersIn: "-._~")
        return names.compactMap { name -> String? in
            let value = name == "cursor" ? cursor : self[name]
            guard let value, let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved) else {
                return nil
            }
            return "\(name)=\(encoded)"
        }.joined(separator: "&")
    }
}
