import AuthCore
import HTTPServer

/// The bearer-authenticated routes: `POST /v1/signout` and `GET /v1/me`.
struct SessionRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        router.post("/v1/signout", handler: signOut)
        router.get("/v1/me", handler: me)
    }

    /// 204. The body is optional: none means `{"scope":"local"}`; a body present must be JSON.
    func signOut(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = request.body.isEmpty ? SignOutBody() : try SignOutBody.decode(from: request)
        try context.auth.signOut(authenticated, scope: body.scope, ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }

    func me(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        return APIJSON.response(authenticated.user)
    }
}
