import HTTPServer

/// A JSON request body: decoded by `Decodable` (unknown fields ignored, missing or wrong-typed ones refused),
/// then checked against `FieldLimits`.
protocol APIRequestBody: Decodable {
    /// Throws `APIError` for a field over its limit.
    func validate() throws(APIError)
}

extension APIRequestBody {
    /// Decodes and validates the body of `request`.
    /// - Throws: `JSONBodyError` (415, 400, 422) or `APIError` (422); `APIErrorMapper` answers both.
    static func decode(from request: HTTPRequest) throws -> Self {
        let body = try request.decodeJSON(Self.self)
        try body.validate()
        return body
    }
}
