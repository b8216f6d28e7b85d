/// Sends one HTTP request and returns the answer, whatever its status. `URLSessionTransport` is the real one;
/// tests give the client a fake to script the server.
///
/// Throw only when there is no answer at all (no network, timeout); the client reports that as
/// `LatchError.network`.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
