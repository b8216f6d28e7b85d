import AuthCore
import Foundation
import HTTPServer

/// Sign-in with a provider's native id_token (Sign in with Apple), and the user's linked identities. The sign-in
/// routes exist only for configured providers (`/v1/signin/apple` answers 404 while `LATCH_APPLE_CLIENT_IDS` is
/// unset). Verifying a token may fetch the provider's keys (at most once a minute per provider, with a 10 s
/// timeout), so the sign-in runs on the hashing pool rather than an MHD thread.
struct ProviderSignInRoutes: Sendable {
    let context: RouteContext
    let pool: WorkerPool
    private var metrics: CeremonyMetrics { context.providerMetrics }

    func register(on router: inout Router) {
        for name in context.auth.configuration.identityProviders.keys.sorted() {
            router.post("/v1/signin/\(name)/nonce") { request in try nonce(request, provider: name) }
            router.post("/v1/signin/\(name)", pool: pool) { request in try signIn(request, provider: name) }
        }
        router.get("/v1/me/identities", handler: list)
        router.delete("/v1/me/identities/:id", handler: remove)
    }

    /// 200 `{"nonce_id", "nonce", "expires_in"}`. The body is optional (`{}`).
    func nonce(_ request: HTTPRequest, provider: String) throws -> HTTPResponse {
        if !request.body.isEmpty { _ = try EmptyBody.decode(from: request) }
        let nonce = try context.auth.providerSignInNonce(provider: provider, ip: context.clients.clientIP(request))
        return APIJSON.response(SignInNonceResponse(nonceID: nonce.id, nonce: nonce.nonce, expiresIn: nonce.expiresIn))
    }

    /// 200 the session or the second-factor challenge, as `POST /v1/signin`.
    func signIn(_ request: HTTPRequest, provider: String) throws -> HTTPResponse {
        let client = context.clients.resolve(request)
        do {
            let body = try ProviderSignInBody.decode(from: request)
            let outcome = try context.auth.signInWithProvider(
                provider, try body.request(acceptLanguage: request.headers["Accept-Language"]), ip: client.ip,
                userAgent: client.userAgent)
            if case .signedIn = outcome { metrics.recordSignIn() }
            return SignInRoutes.response(outcome)
        } catch let error as AuthError {
            metrics.recordFailure(error)
            throw error
        }
    }

    /// 200 `{"identities":[…]}`.
    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        return APIJSON.response(IdentityListResponse(
            identities: try context.auth.identities(of: authenticated).map(IdentityResponse.init)))
    }

    /// 204 (privileged).
    func remove(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        guard let raw = request.parameters["id"], let uuid = UUID(uuidString: raw) else {
            throw AuthError.identityNotFound
        }
        try context.auth.removeIdentity(authenticated, id: IdentityID(uuid), ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }
}

/// `{"nonce_id", "nonce", "expires_in"}`.
struct SignInNonceResponse: Encodable {
    let nonceID: SignInNonceID
    let nonce: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case nonceID = "nonce_id"
        case nonce
        case expiresIn = "expires_in"
    }
}

/// A linked identity as the user sees it: never the provider's subject or the client id.
struct IdentityResponse: Encodable {
    let id: IdentityID
    let provider: String
    let email: String?
    let emailVerified: Bool
    let isPrivateEmail: Bool
    let createdAt: Date
    let lastUsedAt: Date

    init(_ identity: IdentityRecord) {
        id = identity.id
        provider = identity.provider
        email = identity.email
        emailVerified = identity.emailVerified
        isPrivateEmail = identity.isPrivateEmail
        createdAt = identity.createdAt
        lastUsedAt = identity.lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, provider, email
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// `{"identities":[…]}`.
struct IdentityListResponse: Encodable {
    let identities: [IdentityResponse]
}
