import AuthCore
import Foundation
import HTTPServer

/// Passkeys (WebAuthn L3): the options and verification of a registration (bearer) and of a sign-in (none), and
/// the user's list, renaming and removal. The options are the JSON an app hands to
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`, Credential Manager or `navigator.credentials`; the
/// verifications take `PublicKeyCredential.toJSON()`. None hashes a password, so they run on the MHD threads.
struct PasskeyRoutes: Sendable {
    let context: RouteContext
    private var metrics: CeremonyMetrics { context.passkeyMetrics }

    func register(on router: inout Router) {
        router.post("/v1/passkeys/registration/options", handler: registrationOptions)
        router.post("/v1/passkeys/registration/verify", handler: register)
        router.post("/v1/passkeys/authentication/options", handler: authenticationOptions)
        router.post("/v1/passkeys/authentication/verify", handler: signIn)
        router.get("/v1/passkeys", handler: list)
        router.patch("/v1/passkeys/:id", handler: rename)
        router.delete("/v1/passkeys/:id", handler: remove)
    }

    /// 200 `{"challenge_id","publicKey":{…}}` (privileged). The body is optional (`{}`).
    func registrationOptions(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        if !request.body.isEmpty { _ = try EmptyBody.decode(from: request) }
        let options = try context.auth.passkeyRegistrationOptions(authenticated, ip: context.clients.clientIP(request))
        return APIJSON.response(PasskeyCreationOptionsResponse(options))
    }

    /// 201 the passkey.
    func register(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = try PasskeyRegistrationBody.decode(from: request)
        do {
            let passkey = try context.auth.registerPasskey(
                authenticated, challengeID: try passkeyChallengeID(body.challengeID),
                credential: try body.credential.credential(), name: body.name, ip: context.clients.clientIP(request))
            return APIJSON.response(PasskeyResponse(passkey), status: .created)
        } catch let error as AuthError {
            metrics.recordFailure(error)
            throw error
        }
    }

    /// 200 `{"challenge_id","publicKey":{…}}`. Without a bearer, for a sign-in; with one, for re-authenticating
    /// that session (`POST /v1/reauthenticate`). The body is optional (`{}`).
    func authenticationOptions(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = request.headers["Authorization"] == nil ? nil : try context.bearer.authenticate(request)
        if !request.body.isEmpty { _ = try EmptyBody.decode(from: request) }
        let options = try context.auth.passkeyAuthenticationOptions(for: authenticated,
                                                                    ip: context.clients.clientIP(request))
        return APIJSON.response(PasskeyRequestOptionsResponse(options))
    }

    /// 200 the session (as `POST /v1/signin`), `aal2`.
    func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try PasskeyAuthenticationBody.decode(from: request)
        let client = context.clients.resolve(request)
        do {
            let session = try context.auth.signInWithPasskey(
                challengeID: try passkeyChallengeID(body.challengeID), credential: try body.credential.credential(),
                ip: client.ip, userAgent: client.userAgent)
            metrics.recordSignIn()
            return APIJSON.response(SessionResponse(session))
        } catch let error as AuthError {
            metrics.recordFailure(error)
            throw error
        }
    }

    /// 200 `{"passkeys":[…]}`.
    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        return APIJSON.response(PasskeyListResponse(passkeys: try context.auth.passkeys(authenticated).map(PasskeyResponse.init)))
    }

    /// 200 the passkey, renamed.
    func rename(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let id = try passkeyID(request)
        let body = try PasskeyRenameBody.decode(from: request)
        let passkey = try context.auth.renamePasskey(authenticated, id: id, name: body.name,
                                                    ip: context.clients.clientIP(request))
        return APIJSON.response(PasskeyResponse(passkey))
    }

    /// 204 (privileged).
    func remove(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        try context.auth.removePasskey(authenticated, id: try passkeyID(request), ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }

    /// An id that is no uuid is as unknown as any other: 404 `passkey_not_found`.
    private func passkeyID(_ request: HTTPRequest) throws -> PasskeyID {
        guard let raw = request.parameters["id"], let uuid = UUID(uuidString: raw) else {
            throw AuthError.passkeyNotFound
        }
        return PasskeyID(uuid)
    }
}

/// `{"challenge_id", "publicKey": PublicKeyCredentialCreationOptionsJSON}`.
struct PasskeyCreationOptionsResponse: Encodable {
    struct PublicKey: Encodable {
        struct RelyingParty: Encodable {
            let id: String
            let name: String
        }

        struct UserEntity: Encodable {
            let id: String
            let name: String
            let displayName: String
        }

        struct Parameter: Encodable {
            let type = "public-key"
            let alg: Int
        }

        struct Selection: Encodable {
            let residentKey = "required"
            let requireResidentKey = true
            let userVerification = "required"
        }

        let rp: RelyingParty
        let user: UserEntity
        let challenge: String
        let pubKeyCredParams: [Parameter]
        let timeout: Int
        let attestation = "none"
        let authenticatorSelection = Selection()
        let excludeCredentials: [PasskeyDescriptor]
    }

    let challengeID: PasskeyChallengeID
    let publicKey: PublicKey

    init(_ options: PasskeyCreationOptions) {
        challengeID = options.challengeID
        publicKey = PublicKey(
            rp: .init(id: options.rpID, name: options.rpName),
            user: .init(id: Base64URLText.encode(options.userHandle), name: options.userName,
                        displayName: options.userName),
            challenge: Base64URLText.encode(options.challenge),
            pubKeyCredParams: options.algorithms.map { .init(alg: $0.rawValue) }, timeout: options.timeout,
            excludeCredentials: options.excludeCredentials.map(PasskeyDescriptor.init))
    }

    enum CodingKeys: String, CodingKey {
        case challengeID = "challenge_id"
        case publicKey
    }
}

/// `PublicKeyCredentialDescriptorJSON`.
struct PasskeyDescriptor: Encodable {
    let type = "public-key"
    let id: String
    let transports: [String]

    init(_ passkey: PasskeyRecord) {
        id = Base64URLText.encode(passkey.credentialID)
        transports = passkey.transports
    }
}

/// `{"challenge_id", "publicKey": PublicKeyCredentialRequestOptionsJSON}`, with no `allowCredentials`.
struct PasskeyRequestOptionsResponse: Encodable {
    struct PublicKey: Encodable {
        let challenge: String
        let rpId: String
        let timeout: Int
        let userVerification = "required"
        let allowCredentials: [PasskeyDescriptor] = []
    }

    let challengeID: PasskeyChallengeID
    let publicKey: PublicKey

    init(_ options: PasskeyRequestOptions) {
        challengeID = options.challengeID
        publicKey = PublicKey(challenge: Base64URLText.encode(options.challenge), rpId: options.rpID,
                              timeout: options.timeout)
    }

    enum CodingKeys: String, CodingKey {
        case challengeID = "challenge_id"
        case publicKey
    }
}

/// A passkey as the user sees it: no key, no credential id.
struct PasskeyResponse: Encodable {
    let id: PasskeyID
    let name: String
    let createdAt: Date
    let lastUsedAt: Date?
    let backupEligible: Bool
    let backedUp: Bool
    let transports: [String]
    let aaguid: String
    let algorithm: Int

    init(_ passkey: PasskeyRecord) {
        id = passkey.id
        name = passkey.name
        createdAt = passkey.createdAt
        lastUsedAt = passkey.lastUsedAt
        backupEligible = passkey.backupEligible
        backedUp = passkey.backedUp
        transports = passkey.transports
        aaguid = passkey.aaguid.count == 16
            ? UUID(uuid: passkey.aaguid.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString.lowercased()
            : "00000000-0000-0000-0000-000000000000"
        algorithm = passkey.algorithm.rawValue
    }

    /// `last_used_at` is null, not absent, before the first use (as openapi.yaml says).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(backupEligible, forKey: .backupEligible)
        try container.encode(backedUp, forKey: .backedUp)
        try container.encode(transports, forKey: .transports)
        try container.encode(aaguid, forKey: .aaguid)
        try container.encode(algorithm, forKey: .algorithm)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, transports, aaguid, algorithm
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
    }
}

struct PasskeyListResponse: Encodable {
    let passkeys: [PasskeyResponse]
}
