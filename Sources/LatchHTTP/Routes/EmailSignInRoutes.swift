import AuthCore
import HTTPServer

/// `POST /v1/signin/email` (202 for every address) and `POST /v1/signin/email/verify` (a session, only for the
/// app instance that asked). Neither hashes a password, so neither needs the pool. Registered only while
/// `LATCH_EMAIL_SIGNIN` is on: off, both answer 404 `not_found` like any unknown path.
struct EmailSignInRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        guard context.auth.configuration.emailSignIn else { return }
        router.post("/v1/signin/email", handler: request)
        router.post("/v1/signin/email/verify", handler: verify)
    }

    /// 202 `{"status":"signin_sent"}` whether or not the address has an account (ARCHITECTURE.md, security
    /// rule 3): the request is queued and resolved after the answer.
    func request(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try EmailSignInBody.decode(from: request)
        let client = context.clients.resolve(request)
        try context.auth.requestEmailSignIn(email: body.email, binding: body.binding, ip: client.ip,
                                            userAgent: client.userAgent)
        return APIJSON.response(StatusBody.signInSent, status: .accepted)
    }

    /// 200 with a session and a device token, as a password sign-in answers.
    func verify(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try EmailSignInVerifyBody.decode(from: request)
        let client = context.clients.resolve(request)
        let outcome = switch try body.redemption() {
        case .token(let token):
            try context.auth.completeEmailSignIn(token: token, bindingSecret: body.bindingSecret, ip: client.ip,
                                                 userAgent: client.userAgent)
        case .code(let email, let code):
            try context.auth.completeEmailSignIn(email: email, code: code, bindingSecret: body.bindingSecret,
                                                 ip: client.ip, userAgent: client.userAgent)
        }
        return SignInRoutes.response(outcome)
    }
}
