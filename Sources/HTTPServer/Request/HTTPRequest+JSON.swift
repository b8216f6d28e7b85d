import Foundation

extension HTTPRequest {
    /// Decodes the body as JSON into `T`.
    ///
    /// - Parameter requireJSONContentType: when true (the default), a `Content-Type` other
    ///   than `application/json` (parameters such as `charset` allowed) is refused with
    ///   `JSONBodyError.unsupportedMediaType`, which maps to 415.
    /// - Throws: `JSONBodyError`; its `response` is a ready 400/415 JSON error.
    public func decodeJSON<T: Decodable>(
        _ type: T.Type,
        requireJSONContentType: Bool = true
    ) throws(JSONBodyError) -> T {
        if requireJSONContentType, !Self.isJSONMediaType(headers["Content-Type"]) {
            throw .unsupportedMediaType
        }
        guard !body.isEmpty else { throw .emptyBody }
        do {
            return try JSONCoding.decoder.decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            throw JSONBodyError(error)
        } catch {
            throw .malformed
        }
    }

    private static func isJSONMediaType(_ value: String?) -> Bool {
        guard let value else { return false }
        let mediaType = value.split(separator: ";", maxSplits: 1).first ?? ""
        return HTTPHeaders.namesMatch(mediaType.trimmingCharacters(in: .whitespaces), "application/json")
    }
}
