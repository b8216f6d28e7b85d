/// An HTTP response: status, headers and the whole body.
///
/// `Content-Length` is computed by the server from `body` and must not be set here.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The media type sent with `json` and `error` responses.
    public static let jsonContentType = "application/json; charset=utf-8"

    /// `value` encoded as JSON (sorted keys). If encoding fails, which only a faulty
    /// `Encodable` can cause, the answer is a 500 `internal_error` instead.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok) -> HTTPResponse {
        guard let data = try? JSONCoding.encoder.encode(value) else {
            return .internalError
        }
        return HTTPResponse(status: status, headers: ["Content-Type": jsonContentType], body: Array(data))
    }

    /// Plain UTF-8 text.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An HTML page.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }

    /// No body, e.g. 204.
    public static func empty(_ status: HTTPStatus = .noContent) -> HTTPResponse {
        HTTPResponse(status: status)
    }

    /// The project's error body `{"error":{"code":"…","message":"…"}}` with `status`.
    public static func error(status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        json(ErrorEnvelope(code: code, message: message), status: status)
    }

    /// Adds each of `defaults` the response does not set itself (`HTTPServerConfiguration.defaultHeaders`).
    public mutating func addHeaders(ifMissing defaults: HTTPHeaders) {
        for field in defaults where !headers.contains(field.name) {
            headers.add(name: field.name, value: field.value)
        }
    }

    /// The one answer for unexpected failures: a fixed body, so no detail can leak.
    public static let internalError = HTTPResponse(
        status: .internalServerError,
        headers: ["Content-Type": jsonContentType],
        body: Array(#"{"error":{"code":"internal_error","message":"internal error"}}"#.utf8)
    )
}
