import AuthCore
import Foundation
import HTTPServer

/// The signed-in user's second factors (bearer): list them, enrol a TOTP authenticator and activate it with a
/// first code, replace the recovery codes, remove an authenticator. Enrolling, replacing and removing are
/// privileged: a recent re-authentication, with the second factor once there is one. None of them hashes a
/// password, so they run on the MHD threads.
struct SecondFactorRoutes: Sendable {
    let context: RouteContext

    func register(on router: inout Router) {
        router.get("/v1/mfa", handler: status)
        router.post("/v1/mfa/totp", handler: enrol)
        router.post("/v1/mfa/totp/:id/activate", handler: activate)
        router.delete("/v1/mfa/totp/:id", handler: remove)
        router.post("/v1/mfa/recovery-codes", handler: replaceRecoveryCodes)
    }

    /// 200 `{"factors":[…], "recovery_codes_remaining"}`.
    func status(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        return APIJSON.response(SecondFactorStatusResponse(try context.auth.secondFactorStatus(authenticated)))
    }

    /// 201 `{"factor_id","secret","otpauth_uri","expires_in"}`. The body is optional (`{}`).
    func enrol(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let body = request.body.isEmpty ? TOTPEnrolmentBody() : try TOTPEnrolmentBody.decode(from: request)
        let enrollment = try context.auth.enrolTOTP(authenticated, name: body.name, ip: context.clients.clientIP(request))
        return APIJSON.response(TOTPEnrollmentResponse(enrollment), status: .created)
    }

    /// 200 `{"recovery_codes":[…], "access_token", "access_token_expires_at"}`.
    func activate(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        let factor = try factorID(request)
        let body = try TOTPActivationBody.decode(from: request)
        let activation = try context.auth.activateTOTP(authenticated, factorID: factor, code: body.code,
                                                       ip: context.clients.clientIP(request))
        return APIJSON.response(SecondFactorActivationResponse(activation))
    }

    /// 204.
    func remove(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        try context.auth.removeTOTP(authenticated, factorID: try factorID(request), ip: context.clients.clientIP(request))
        return .empty(.noContent)
    }

    /// 200 `{"recovery_codes":[…]}`. No body is needed; one present must be `{}`.
    func replaceRecoveryCodes(_ request: HTTPRequest) throws -> HTTPResponse {
        let authenticated = try context.bearer.authenticate(request)
        if !request.body.isEmpty { _ = try EmptyBody.decode(from: request) }
        let codes = try context.auth.replaceRecoveryCodes(authenticated, ip: context.clients.clientIP(request))
        return APIJSON.response(RecoveryCodesResponse(recoveryCodes: codes))
    }

    /// An id that is no uuid is as unknown as any other: 404 `factor_not_found`.
    private func factorID(_ request: HTTPRequest) throws -> FactorID {
        guard let raw = request.parameters["id"], let uuid = UUID(uuidString: raw) else {
            throw AuthError.factorNotFound
        }
        return FactorID(uuid)
    }
}

/// `{}`: a body with no fields.
struct EmptyBody: APIRequestBody {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case none = "-"
    }

    init(from decoder: any Decoder) throws {}

    func validate() throws(APIError) {}
}

struct SecondFactorStatusResponse: Encodable {
    struct Factor: Encodable {
        let id: FactorID
        let type = "totp"
        let name: String
        let createdAt: Date
        let lastUsedAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, type, name
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
        }

        // `last_used_at` is null, not missing, before the first use: every entry has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
        }
    }

    let factors: [Factor]
    let recoveryCodesRemaining: Int

    init(_ status: SecondFactorStatus) {
        factors = status.factors.map {
            Factor(id: $0.id, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt)
        }
        recoveryCodesRemaining = status.recoveryCodesRemaining
    }

    enum CodingKeys: String, CodingKey {
        case factors
        case recoveryCodesRemaining = "recovery_codes_remaining"
    }
}

struct TOTPEnrollmentResponse: Encodable {
    let factorID: FactorID
    let secret: String
    let otpauthURI: String
    let expiresIn: Int

    init(_ enrollment: TOTPEnrollment) {
        factorID = enrollment.factorID
        secret = enrollment.secret
        otpauthURI = enrollment.otpauthURI
        expiresIn = enrollment.expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case factorID = "factor_id"
        case secret
        case otpauthURI = "otpauth_uri"
        case expiresIn = "expires_in"
    }
}

struct SecondFactorActivationResponse: Encodable {
    let recoveryCodes: [String]
    let accessToken: String
    let accessTokenExpiresAt: Date

    init(_ activation: SecondFactorActivation) {
        recoveryCodes = activation.recoveryCodes
        accessToken = activation.accessToken
        accessTokenExpiresAt = activation.accessTokenExpiresAt
    }

    enum CodingKeys: String, CodingKey {
        case recoveryCodes = "recovery_codes"
        case accessToken = "access_token"
        case accessTokenExpiresAt = "access_token_expires_at"
    }
}

struct RecoveryCodesResponse: Encodable {
    let recoveryCodes: [String]

    enum CodingKeys: String, CodingKey {
        case recoveryCodes = "recovery_codes"
    }
}
