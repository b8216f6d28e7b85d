/// An answer any handler or the server itself may throw or send, with its status, code and message given where
/// it is made: `throw HTTPError(status: .notFound, code: "not_found", message: "…")`.
public struct HTTPError: HTTPResponseError, Equatable {
    public var status: HTTPStatus
    public var code: String
    public var message: String
    public var headers: HTTPHeaders

    public init(status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public static let notFound = HTTPError(status: .notFound, code: "not_found", message: "no such resource")

    /// A request the server will not read, e.g. one whose body length is ambiguous (`MessageFraming`).
    public static func badRequest(_ message: String) -> HTTPError {
        HTTPError(status: .badRequest, code: "bad_request", message: message)
    }

    public static func methodNotAllowed(allow: String) -> HTTPError {
        HTTPError(status: .methodNotAllowed, code: "method_not_allowed", message: "method not allowed here",
                  headers: ["Allow": allow])
    }

    public static func payloadTooLarge(maxBytes: Int) -> HTTPError {
        HTTPError(status: .payloadTooLarge, code: "payload_too_large", message: "request body exceeds \(maxBytes) bytes")
    }

    public static func uriTooLong(maxBytes: Int) -> HTTPError {
        HTTPError(status: .uriTooLong, code: "uri_too_long", message: "request target exceeds \(maxBytes) bytes")
    }

    public static func headerFieldsTooLarge(maxBytes: Int) -> HTTPError {
        HTTPError(status: .requestHeaderFieldsTooLarge, code: "header_fields_too_large",
                  message: "request line and headers exceed \(maxBytes) bytes")
    }

    /// The hashing pool's queue is full.
    public static let overloaded = HTTPError(
        status: .serviceUnavailable, code: "overloaded", message: "server is busy, retry shortly",
        headers: ["Retry-After": "1"])

    /// Requests that arrive after `stop()` began, and offloaded ones still running when its timeout ends.
    public static let shuttingDown = HTTPError(
        status: .serviceUnavailable, code: "shutting_down", message: "server is shutting down",
        headers: ["Retry-After": "1"])
}
