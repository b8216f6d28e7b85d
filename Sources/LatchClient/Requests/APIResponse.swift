import Foundation

/// What a successful answer's body decodes into.
protocol APIResponse: Sendable {
    init(body: Data) throws
}

extension APIResponse where Self: Decodable {
    init(body: Data) throws {
        self = try APIJSON.decoder.decode(Self.self, from: body)
    }
}

/// A 202 or 204 whose body says nothing the app needs (`{"status":"confirmation_sent"}`, or none).
struct NoContent: APIResponse {
    init(body: Data) {}
}
