import Foundation

/// `GET /v1/mfa` (bearer) → 200 `{"factors":[…], "recovery_codes_remaining"}`.
struct MFAStatusRequest: APIRequest {
    typealias Response = MFAStatus
    static let method = "GET"
    static let path = "/v1/mfa"
}

/// `POST /v1/mfa/totp` (bearer, privileged) `{}` or `{"name"}` (the key left out for the server's default) → 201
/// `{"factor_id", "secret", "otpauth_uri", "expires_in"}`: a pending factor, replacing the user's pending one.
struct EnrollTOTPRequest: APIRequest {
    typealias Response = TOTPEnrollment
    static let path = "/v1/mfa/totp"
    let name: String?
}

/// `POST /v1/mfa/totp/{id}/activate` (bearer) `{"code"}` → 200 `{"recovery_codes", "access_token",
/// "access_token_expires_at"}`: the factor is active, and this session's new access token says so (the one used for
/// the call stops working, as after a re-authentication).
struct ActivateTOTPRequest: APIRequest {
    static let path = "/v1/mfa/totp/{id}/activate"
    let factorID: UUID
    let code: String

    var resolvedPath: String { "/v1/mfa/totp/" + factorID.uuidString.lowercased() + "/activate" }

    /// Only the code goes in the body; the factor is in the path.
    enum CodingKeys: String, CodingKey { case code }

    struct Response: APIResponse, Decodable {
        let recoveryCodes: [String]
        let accessToken: String
        let accessTokenExpiresAt: Date

        enum CodingKeys: String, CodingKey {
            case recoveryCodes = "recovery_codes"
            case accessToken = "access_token"
            case accessTokenExpiresAt = "access_token_expires_at"
        }
    }
}

/// `POST /v1/mfa/recovery-codes` (bearer, privileged) `{}` → 200 `{"recovery_codes":[…]}`: ten new codes, the old
/// ones void.
struct RegenerateRecoveryCodesRequest: APIRequest {
    static let path = "/v1/mfa/recovery-codes"

    struct Response: APIResponse, Decodable {
        let recoveryCodes: [String]
        enum CodingKeys: String, CodingKey { case recoveryCodes = "recovery_codes" }
    }
}

/// `DELETE /v1/mfa/totp/{id}` (bearer, privileged) → 204.
struct RemoveTOTPRequest: APIRequest {
    typealias Response = NoContent
    static let method = "DELETE"
    static let path = "/v1/mfa/totp/{id}"
    static let sendsBody = false
    let factorID: UUID

    var resolvedPath: String { "/v1/mfa/totp/" + factorID.uuidString.lowercased() }
}
