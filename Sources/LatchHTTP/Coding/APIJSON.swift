import Foundation
import HTTPServer

/// JSON responses of the API. Its own encoder because AuthCore's values carry dates, which must be ISO 8601
/// (`2025-01-31T12:00:00Z`), not Foundation's default of seconds since 2001.
enum APIJSON {
    /// Built once: configuring an encoder costs more than a small encode, and a configured one is thread-safe.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// `value` as a JSON response. Encoding can only fail for a faulty `Encodable`; then the fixed 500 body.
    static func response(_ value: some Encodable, status: HTTPStatus = .ok) -> HTTPResponse {
        guard let data = try? encoder.encode(value) else { return .internalError }
        return HTTPResponse(status: status, headers: ["Content-Type": HTTPResponse.jsonContentType], body: Array(data))
    }
}
