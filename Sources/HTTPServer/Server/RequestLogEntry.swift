/// What the server reports about each finished request, for one access-log line.
/// Deliberately without query string, headers or body: those may hold tokens.
public struct RequestLogEntry: Sendable, Equatable {
    /// Empty when libmicrohttpd refused the request with its own page before the server saw its headers.
    public var method: String
    /// Decoded path without the query string.
    public var path: String
    /// The matched route's pattern as registered (`/v1/sessions/:id`), nil when no route matched: what metrics
    /// label requests by, so that a label never holds a value from a path.
    public var route: String?
    /// Status sent, or 0 if none was (client went away first).
    public var status: Int
    /// From the request line arriving to the request's end.
    public var durationMicroseconds: Int
    public var clientAddress: String
    /// False when the connection ended abnormally (client abort, timeout, shutdown).
    public var completed: Bool

    public init(
        method: String, path: String, route: String? = nil, status: Int, durationMicroseconds: Int,
        clientAddress: String, completed: Bool
    ) {
        self.method = method
        self.path = path
        self.route = route
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.clientAddress = clientAddress
        self.completed = completed
    }
}
