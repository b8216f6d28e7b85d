import AuthCore
import HTTPServer

/// A signed-in user's own account: change the password, change the address (and confirm it from the new
/// mailbox), delete the account. Every change needs proof of presence, the current password or a recent
/// re-authentication of the session (a stolen access token alone takes nothing), so each of those routes may
/// hash and runs on the pool; the confirmation does not.
struct AccountRoutes: Sendable {
    let context: RouteContext
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/password/change", pool: hashingPool, handler: changePassword)
        router.post("/v1/email/change", pool: hashingPool, handler: requestEmailChange)
        router.post("/v1/email/change/confirm", handler: confirmEmailChange)
        router.delete("/v1/me", pool: hashingPool, handler: deleteAccount)
    }

    /// 200 `{"status":"password_changed"}`; the calling session stays, every other one ends.
    func changePassword(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = try PasswordChangeBody.decode(from: request)
        try context.auth.changePassword(authenticated, currentPassword: body.currentPassword,
                                        newPassword: body.newPassword, ip: context.clients.clientIP(request))
        return APIJSON.response(StatusBody.passwordChanged)
    }

    /// 202 `{"status":"confirmation_sent"}` whether or not another account has the new address (ARCHITECTURE.md,
    /// security rule 3): that mailbox is told instead of sent a link.
    func requestEmailChange(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = try EmailChangeBody.decode(from: request)
        try context.auth.requestEmailChange(authenticated, newEmail: body.newEmail, password: body.password,
                                            ip: context.clients.clientIP(request))
        return APIJSON.response(StatusBody.confirmationSent, status: .accepted)
    }

    /// 200 with the user at the new address. No bearer: the link may open on any device.
    func confirmEmailChange(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try TokenBody.decode(from: request)
        let ip = context.clients.clientIP(request)
        let user = switch try body.redemption() {
        case .token(let token): try context.auth.confirmEmailChange(token: token, ip: ip)
        case .code(let email, let code): try context.auth.confirmEmailChange(newEmail: email, code: code, ip: ip)
        }
        return APIJSON.response(user)
    }

    /// 204: the account, its sessions, tokens and devices are gone, and its address is forgotten.
    func deleteAccount(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        // After a re-authentication there is nothing to send: no body reads as `{}`.
        let body = request.body.isEmpty ? PasswordBody(password: nil) : try PasswordBody.decode(from: request)
        try context.auth.deleteAccount(authenticated, password: body.password, ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }
}
