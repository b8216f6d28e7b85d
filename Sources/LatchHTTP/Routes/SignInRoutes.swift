import AuthCore
import HTTPServer

/// `POST /v1/signin`: 200 with a session and a device token, or 401 `invalid_credentials` for unknown email and
/// wrong password alike.
struct SignInRoutes: Sendable {
    let context: RouteContext
    /// Sign-in verifies an Argon2 hash (or a dummy one), so it runs off the MHD threads.
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/signin", pool: hashingPool, handler: signIn)
    }

    func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try SignInBody.decode(from: request)
        let client = context.clients.resolve(request)
        let session = try context.auth.signIn(email: body.email, password: body.password, deviceToken: body.deviceToken,
                                              ip: client.ip, userAgent: client.userAgent)
        return APIJSON.response(SessionResponse(session))
    }
}
