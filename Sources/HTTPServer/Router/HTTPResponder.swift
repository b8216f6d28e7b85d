/// A request handler: synchronous, runs on an MHD thread or a `WorkerPool` thread.
/// A thrown `HTTPResponseError` becomes its response; anything else goes to `onUnexpectedError`.
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// What the server answers when a handler throws an error that is not an `HTTPResponseError` (a store failure,
/// say): given the error and the matched route, for reporting. Must not put the error's details in the answer.
public typealias UnexpectedErrorHandler = @Sendable (_ error: any Error, _ route: String?) -> HTTPResponse

/// The seam between the server and whatever picks a handler (normally a `Router`).
/// The server asks before running anything, so the answer can say where to run it.
public protocol HTTPResponder: Sendable {
    /// Chooses the handler for `request`. Called on an MHD thread; must be cheap.
    func resolve(_ request: HTTPRequest) -> HTTPRouteMatch
}

/// The outcome of routing one request.
public struct HTTPRouteMatch: Sendable {
    /// The pattern of the matched route as registered (`/v1/sessions/:id`), for logs and metrics; nil when no
    /// route matched (404, 405).
    public var route: String?
    /// Captured `:name` values, copied into `HTTPRequest.parameters`.
    public var parameters: RouteParameters
    /// Where to run the handler: nil means inline on the MHD thread.
    public var pool: WorkerPool?
    /// The handler to run.
    public var handler: HTTPHandler

    public init(
        route: String? = nil, parameters: RouteParameters = RouteParameters(), pool: WorkerPool? = nil,
        handler: @escaping HTTPHandler
    ) {
        self.route = route
        self.parameters = parameters
        self.pool = pool
        self.handler = handler
    }

    /// Runs the handler on `request`: the one place a thrown error becomes an answer. An `HTTPResponseError` is its
    /// own answer; anything else is `unexpected`'s, so no detail of an internal failure reaches a client.
    public func respond(to request: HTTPRequest, unexpected: UnexpectedErrorHandler) -> HTTPResponse {
        do {
            return try handler(request)
        } catch let error as any HTTPResponseError {
            return error.response
        } catch {
            return unexpected(error, route)
        }
    }
}
