import AuthCore
import Foundation
import HTTPServer

/// The bearer-authenticated session routes: sign out, who am I, list the user's sessions and end one of them.
struct SessionRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        router.post("/v1/signout", handler: signOut)
        router.get("/v1/me", handler: me)
        router.patch("/v1/me", handler: updateMe)
        router.get("/v1/sessions", handler: sessions)
        router.delete("/v1/sessions/:id", handler: revokeSession)
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

    /// 200 the user, in the language it chose (`{"locale"}`).
    func updateMe(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = try LocaleBody.decode(from: request)
        return APIJSON.response(try context.auth.setLocale(authenticated, locale: body.locale))
    }

    /// 200 `{"sessions":[…]}`, newest first; the caller's has `"current":true`.
    func sessions(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let activity = try context.auth.sessions(of: authenticated)
        return APIJSON.response(SessionListResponse(activity, current: authenticated.session.id))
    }

    /// 204. An id that is no uuid is as unknown as any other: 404 `session_not_found`.
    func revokeSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        guard let raw = request.parameters["id"], let uuid = UUID(uuidString: raw) else {
            throw AuthError.sessionNotFound
        }
        try context.auth.revokeSession(SessionID(uuid), of: authenticated, ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }
}
