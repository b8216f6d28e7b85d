import AuthCore
import HTTPServer

/// `POST /v1/token/refresh`: refresh-token rotation; a replayed token revokes its family (401).
struct TokenRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        router.post("/v1/token/refresh", handler: refresh)
    }

    func refresh(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try RefreshTokenBody.decode(from: request)
        let client = context.clients.resolve(request)
        let session = try context.auth.refresh(refreshToken: body.refreshToken, ip: client.ip,
                                               userAgent: client.userAgent)
        return APIJSON.response(SessionResponse(session))
    }
}
