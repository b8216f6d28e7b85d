import AuthCore
import HTTPServer

/// `POST /v1/signup`: the same 202 whether or not the email is registered (ARCHITECTURE.md, security rule 3).
struct SignUpRoutes: Sendable {
    let context: RouteContext
    /// Sign-up hashes the password, so it runs off the MHD threads.
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/signup", pool: hashingPool, handler: signUp)
    }

    func signUp(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try SignUpBody.decode(from: request)
        let client = context.clients.resolve(request)
        _ = try context.auth.signUp(email: body.email, password: body.password, locale: body.locale,
                                    acceptLanguage: request.headers["Accept-Language"], ip: client.ip,
                                    userAgent: client.userAgent)
        return APIJSON.response(StatusBody.confirmationSent, status: .accepted)
    }
}
