/// A thrown JSON error answer: `{"error":{"code":…,"message":…}}` with a status.
/// Handlers throw it to bail out early (`throw HTTPError(status: .notFound, code: "not_found", message: "…")`).
public struct HTTPError: HTTPResponseError, Equatable {
    public var status: HTTPStatus
    /// Stable snake_case code clients can switch on.
    public var code: String
    /// Human-readable text; must not contain secrets.
    public var message: String
    /// An extra header for the answer, e.g. `Retry-After`.
    public var header: HTTPHeaders.Field?

    public init(status: HTTPStatus, code: String, message: String, header: HTTPHeaders.Field? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.header = header
    }

    public var response: HTTPResponse {
        var response = HTTPResponse.error(status: status, code: code, message: message)
        if let header {
            response.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        return response
    }
}
