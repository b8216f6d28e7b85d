import AuthCore
import HTTPServer

/// `POST /v1/invite/accept`: the invited person sets the first password with the invitation's token or code, which
/// confirms the address and signs in (the answer of `POST /v1/confirm`). Hashes the password: on the pool.
struct InviteRoutes: Sendable {
    let context: RouteContext
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/invite/accept", pool: hashingPool, handler: accept)
    }

    func accept(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try InviteAcceptBody.decode(from: request)
        let client = context.clients.resolve(request)
        let session = switch try body.redemption() {
        case .token(let token):
            try context.auth.acceptInvite(token: token, password: body.password, ip: client.ip,
                                          userAgent: client.userAgent)
        case .code(let email, let code):
            try context.auth.acceptInvite(email: email, code: code, password: body.password, ip: client.ip,
                                          userAgent: client.userAgent)
        }
        return APIJSON.response(SessionResponse(session))
    }
}
