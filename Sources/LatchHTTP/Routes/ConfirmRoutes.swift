import AuthCore
import HTTPServer

/// `POST /v1/confirm` (redeem the mailed link's token or its code, sign in) and `POST /v1/confirm/resend`.
/// Neither hashes a password, so both run inline.
struct ConfirmRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        router.post("/v1/confirm", handler: confirm)
        router.post("/v1/confirm/resend", handler: resend)
    }

    func confirm(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try TokenBody.decode(from: request)
        let client = context.clients.resolve(request)
        let session = switch try body.redemption() {
        case .token(let token): try context.auth.confirm(token: token, ip: client.ip, userAgent: client.userAgent)
        case .code(let email, let code):
            try context.auth.confirm(email: email, code: code, ip: client.ip, userAgent: client.userAgent)
        }
        return APIJSON.response(SessionResponse(session))
    }

    /// 202 for every email, known or not (ARCHITECTURE.md, security rule 3).
    func resend(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try EmailBody.decode(from: request)
        let client = context.clients.resolve(request)
        _ = try context.auth.resendConfirmation(email: body.email, ip: client.ip)
        return APIJSON.response(StatusBody.confirmationSent, status: .accepted)
    }
}
