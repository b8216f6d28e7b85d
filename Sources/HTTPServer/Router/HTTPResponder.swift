/// A request handler: synchronous, runs on an MHD thread or a `WorkerPool` thread.
/// A thrown `HTTPResponseError` becomes its response; anything else a bare 500.
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// The seam between the server and whatever picks a handler (normally a `Router`).
/// The server asks before running anything, so the answer can say where to run it.
public protocol HTTPResponder: Sendable {
    /// Chooses the handler for `request`. Called on an MHD thread; must be cheap.
    func resolve(_ request: HTTPRequest) -> HTTPRouteMatch
}

/// The outcome of routing one request.
public struct HTTPRouteMatch: Sendable {
    /// Captured `:name` values, copied into `HTTPRequest.parameters`.
    public var parameters: RouteParameters
    /// Where to run the handler: nil means inline on the MHD thread.
    public var pool: WorkerPool?
    /// The handler to run.
    public var handler: HTTPHandler

    public init(parameters: RouteParameters = RouteParameters(), pool: WorkerPool? = nil, handler: @escaping HTTPHandler) {
        self.parameters = parameters
        self.pool = pool
        self.handler = handler
    }
}
