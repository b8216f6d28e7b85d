import AuthCore
import Foundation
import HTTPServer

/// `POST /v1/reauthenticate` (bearer; the password, a mailed code, a second factor or a passkey) and `POST /v1/reauthenticate/email`
/// (bearer; mails the code): proof of presence for privileged changes (RFC 9470). The password form hashes, so
/// the route runs on the pool.
struct ReauthenticationRoutes: Sendable {
    let context: RouteContext
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/reauthenticate", pool: hashingPool, handler: reauthenticate)
        router.post("/v1/reauthenticate/email", handler: mailCode)
    }

    /// 200 `{"access_token","access_token_expires_at","reauthenticated_until"}`: a new access token of the same
    /// session (the one presented stops working), whose `auth_time` is now.
    func reauthenticate(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = try ReauthenticationBody.decode(from: request)
        let ip = context.clients.clientIP(request)
        let proven = switch try body.proof() {
        case .password(let password): try context.auth.reauthenticate(authenticated, password: password, ip: ip)
        case .emailCode(let code): try context.auth.reauthenticate(authenticated, emailCode: code, ip: ip)
        case .secondFactor(let proof): try context.auth.reauthenticate(authenticated, secondFactor: proof, ip: ip)
        case .passkey(let challengeID, let credential):
            try context.auth.reauthenticate(authenticated, passkeyChallenge: try passkeyChallengeID(challengeID),
                                            credential: credential, ip: ip)
        }
        return APIJSON.response(ReauthenticationResponse(proven))
    }

    /// 202 `{"status":"code_sent"}`: an 8-digit code to the account's address, for this session only.
    func mailCode(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        try context.auth.requestReauthenticationCode(authenticated, ip: context.clients.clientIP(request))
        return APIJSON.response(StatusBody.codeSent, status: .accepted)
    }
}

/// The answer of `POST /v1/reauthenticate`.
struct ReauthenticationResponse: Encodable, Equatable {
    let accessToken: String
    let accessTokenExpiresAt: Date
    let reauthenticatedUntil: Date

    init(_ proven: Reauthenticated) {
        accessToken = proven.accessToken
        accessTokenExpiresAt = proven.accessTokenExpiresAt
        reauthenticatedUntil = proven.reauthenticatedUntil
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case accessTokenExpiresAt = "access_token_expires_at"
        case reauthenticatedUntil = "reauthenticated_until"
    }
}
