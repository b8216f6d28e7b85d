import AuthCore
import HTTPServer

/// `POST /v1/password/forgot` (202 for every email) and `POST /v1/password/reset` (hashes: on the pool).
struct PasswordRoutes: Sendable {
    let context: RouteContext
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/password/forgot", handler: forgot)
        router.post("/v1/password/reset", pool: hashingPool,
                    handler: reset)
    }

    /// 202 `{"status":"reset_sent"}` whether or not the email is registered (ARCHITECTURE.md, security rule 3).
    func forgot(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try EmailBody.decode(from: request)
        try context.auth.forgotPassword(email: body.email, ip: context.clients.clientIP(request))
        return APIJSON.response(StatusBody.resetSent, status: .accepted)
    }

    /// 200 `{"status":"password_reset","user":{…}}`; every session of the user is now revoked.
    func reset(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try PasswordResetBody.decode(from: request)
        let ip = context.clients.clientIP(request)
        let secondFactor = try body.secondFactorProof()
        let user = switch try body.redemption() {
        case .token(let token):
            try context.auth.resetPassword(token: token, newPassword: body.password, secondFactor: secondFactor, ip: ip)
        case .code(let email, let code):
            try context.auth.resetPassword(email: email, code: code, newPassword: body.password,
                                           secondFactor: secondFactor, ip: ip)
        }
        return APIJSON.response(PasswordResetResponse(user: user))
    }
}
