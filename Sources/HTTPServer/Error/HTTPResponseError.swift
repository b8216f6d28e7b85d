/// An error that says its own HTTP answer, once: status, stable code, safe message, and any extra headers. A
/// handler that throws one gets exactly that answer, as the project's JSON error body
/// `{"error":{"code","message","reason"?}}`; the server is the one place that turns errors into responses
/// (`HTTPRouteMatch.respond`). Anything else thrown is an unexpected failure (`HTTPServer`'s
/// `onUnexpectedError`).
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// Stable snake_case code clients can switch on.
    var code: String { get }
    /// Human-readable and safe to show: never a token, password, hash or internal detail.
    var message: String { get }
    /// A finer reason beside the code (e.g. which password rule), nil for none.
    var reason: String? { get }
    /// Extra headers of the answer (`Retry-After`, `WWW-Authenticate`, `Allow`).
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    public var reason: String? { nil }
    public var headers: HTTPHeaders { HTTPHeaders() }

    /// The answer: the JSON error body with the status and headers.
    public var response: HTTPResponse {
        var response = HTTPResponse.json(ErrorEnvelope(code: code, message: message, reason: reason), status: status)
        for field in headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        return response
    }
}
