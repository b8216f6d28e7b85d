import Foundation
import HTTPServer

/// An `application/x-www-form-urlencoded` body, as an HTML form posts it: `name=value` pairs split on `&`,
/// percent-decoded with `+` as a space (the decoding of HTTPServer's query strings, which is the same grammar).
struct FormBody: Sendable {
    static let mediaType = "application/x-www-form-urlencoded"

    enum Problem: Error, Equatable {
        case unsupportedMediaType
        /// Missing, repeated or over its byte limit; the name of the field, never its value.
        case invalidField(String)
    }

    let items: [HTTPQueryItem]

    /// Parses the body of `request` (already bounded by the server's body limit).
    init(_ request: HTTPRequest) throws(Problem) {
        guard Self.isFormMediaType(request.headers["Content-Type"]) else { throw .unsupportedMediaType }
        items = HTTPQueryItem.parse(String(decoding: request.body, as: UTF8.self))
    }

    /// The single value of field `name`, at most `maxBytes` UTF-8 bytes and without NUL.
    func value(_ name: String, maxBytes: Int) throws(Problem) -> String {
        let values = items.filter { $0.name == name }
        guard values.count == 1, let value = values.first?.value, !value.isEmpty,
              value.utf8.count <= maxBytes, !value.utf8.contains(0)
        else { throw .invalidField(name) }
        return value
    }

    /// The value of an optional field `name`: nil when absent or left empty (a browser posts an empty text field
    /// as `name=`), else checked as `value` does.
    func optionalValue(_ name: String, maxBytes: Int) throws(Problem) -> String? {
        let values = items.filter { $0.name == name }
        if values.isEmpty || (values.count == 1 && values[0].value.isEmpty) { return nil }
        return try value(name, maxBytes: maxBytes)
    }

    /// Whether the form has a field `name` at all (to tell which of two forms was posted).
    func has(_ name: String) -> Bool {
        items.contains { $0.name == name }
    }

    private static func isFormMediaType(_ value: String?) -> Bool {
        guard let value else { return false }
        let mediaType = value.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == Self.mediaType
    }
}
