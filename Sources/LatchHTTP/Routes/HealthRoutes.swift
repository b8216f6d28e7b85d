import HTTPServer

/// `GET /healthz` (the process answers) and `GET /readyz` (it can serve: the readiness check passes).
struct HealthRoutes: Sendable {
    let context: RouteContext
    let isReady: @Sendable () -> Bool

    func register(on router: inout Router) {
        router.get("/healthz") { _ in APIJSON.response(StatusBody.ok) }
        router.get("/readyz", handler: ready)
    }

    /// 200 `{"status":"ready"}`, else 503 `not_ready` so a load balancer takes the instance out.
    func ready(_ request: HTTPRequest) throws -> HTTPResponse {
        guard isReady() else { throw APIError.notReady }
        return APIJSON.response(StatusBody.ready)
    }
}
