/// Routes by method and path: static paths (hash lookup) and `:param` segments.
///
/// Unknown paths get 404 `not_found`; a known path with another method gets
/// 405 `method_not_allowed` with an `Allow` header. HEAD falls back to the GET route, for
/// every GET route at once: the same status and headers, and the body for libmicrohttpd to
/// count in `Content-Length` and not send. Mail scanners (Outlook Safe Links) send HEAD
/// before anyone clicks a link, so no GET route may forget it. Build the router once at
/// start-up, then hand it to `HTTPServer`.
public struct Router: HTTPResponder {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        /// As registered: what logs and metrics name the route by.
        let path: String
        let pool: WorkerPool?
        let handler: HTTPHandler
    }

    private var staticRoutes: [String: [Route]] = [:]
    private var patternRoutes: [Route] = []
    /// Every registration, in order: the one list of the routes, for documents and tests that must agree with it.
    public private(set) var routes: [(method: HTTPMethod, path: String)] = []

    public init() {}

    /// Registers `handler` for `method` on `path` (`/v1/users/:id`).
    /// - Parameter pool: run the handler on this pool instead of the MHD thread, for
    ///   CPU-heavy work; when its queue is full the client gets 503 `overloaded`.
    public mutating func on(
        _ method: HTTPMethod, _ path: String, pool: WorkerPool? = nil, handler: @escaping HTTPHandler
    ) {
        let pattern = RoutePattern(path)
        let route = Route(method: method, pattern: pattern, path: path, pool: pool, handler: handler)
        routes.append((method, path))
        if pattern.isStatic {
            staticRoutes[pattern.staticKey, default: []].append(route)
        } else {
            patternRoutes.append(route)
        }
    }

    /// Registers a GET route (also answering HEAD).
    public mutating func get(_ path: String, pool: WorkerPool? = nil, handler: @escaping HTTPHandler) {
        on(.get, path, pool: pool, handler: handler)
    }

    /// Registers a POST route.
    public mutating func post(_ path: String, pool: WorkerPool? = nil, handler: @escaping HTTPHandler) {
        on(.post, path, pool: pool, handler: handler)
    }

    /// Registers a PATCH route.
    public mutating func patch(_ path: String, pool: WorkerPool? = nil, handler: @escaping HTTPHandler) {
        on(.patch, path, pool: pool, handler: handler)
    }

    /// Registers a DELETE route.
    public mutating func delete(_ path: String, pool: WorkerPool? = nil, handler: @escaping HTTPHandler) {
        on(.delete, path, pool: pool, handler: handler)
    }

    public func resolve(_ request: HTTPRequest) -> HTTPRouteMatch {
        let segments = request.rawPath.split(separator: "/")
        let staticMatches = staticRoutes[RoutePattern.key(segments)] ?? []
        // HEAD prefers its own route, then borrows GET's; every other method is exact.
        let methods: [HTTPMethod] = request.method == .head ? [.head, .get] : [request.method]
        for method in methods {
            // Static routes are checked first, so an exact path wins over a pattern.
            if let route = staticMatches.first(where: { $0.method == method }) {
                return HTTPRouteMatch(route: route.path, pool: route.pool, handler: route.handler)
            }
            for route in patternRoutes where route.method == method {
                if let parameters = route.pattern.match(segments) {
                    return HTTPRouteMatch(route: route.path, parameters: parameters, pool: route.pool,
                                          handler: route.handler)
                }
            }
        }
        let allowed = staticMatches.map(\.method)
            + patternRoutes.filter { $0.pattern.match(segments) != nil }.map(\.method)
        return allowed.isEmpty ? Self.notFound : Self.methodNotAllowed(allow: Self.allowHeader(allowed))
    }

    private static let notFound = HTTPRouteMatch { _ in throw HTTPError.notFound }

    private static func methodNotAllowed(allow: String) -> HTTPRouteMatch {
        HTTPRouteMatch { _ in throw HTTPError.methodNotAllowed(allow: allow) }
    }

    private static func allowHeader(_ methods: [HTTPMethod]) -> String {
        var names = Set(methods.map(\.rawValue))
        if names.contains("GET") { names.insert("HEAD") }
        return names.sorted().joined(separator: ", ")
    }
}
