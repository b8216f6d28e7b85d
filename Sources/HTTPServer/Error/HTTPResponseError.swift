/// An error that knows its own HTTP answer. A handler that throws one gets exactly that
/// response; any other thrown error becomes a 500 `internal_error` with no details.
public protocol HTTPResponseError: Error {
    /// The response to send for this error.
    var response: HTTPResponse { get }
}
