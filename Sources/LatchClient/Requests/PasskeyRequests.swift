import Foundation

/// `POST /v1/passkeys/registration/options` (bearer, privileged) `{}` → 200 `{"challenge_id", "publicKey"}`.
struct PasskeyRegistrationOptionsRequest: APIRequest {
    typealias Response = PasskeyRegistrationOptions
    static let path = "/v1/passkeys/registration/options"
}

/// `POST /v1/passkeys/registration/verify` (bearer) `{"challenge_id", "credential", "name"?}` → 201 the passkey;
/// `name` left out for the server's default ("Passkey").
struct RegisterPasskeyRequest: APIRequest {
    typealias Response = Passkey
    static let path = "/v1/passkeys/registration/verify"
    let challengeID: UUID
    let credential: RegistrationResponseJSON
    let name: String?

    enum CodingKeys: String, CodingKey {
        case credential, name
        case challengeID = "challenge_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(challengeID.uuidString.lowercased(), forKey: .challengeID)
        try container.encode(credential, forKey: .credential)
        try container.encodeIfPresent(name, forKey: .name)
    }
}

/// `POST /v1/passkeys/authentication/options` `{}` → 200 `{"challenge_id", "publicKey"}`: without a bearer for a
/// sign-in, with one for re-authenticating that session (`ReauthenticateRequest(passkey:challengeID:)`).
struct PasskeyAuthenticationOptionsRequest: APIRequest {
    typealias Response = PasskeyAuthenticationOptions
    static let path = "/v1/passkeys/authentication/options"
}

/// `POST /v1/passkeys/authentication/verify` (no bearer) `{"challenge_id", "credential"}` → 200 session and
/// `device_token`, as `POST /v1/signin`; the session is `aal2` (a passkey is both factors).
struct PasskeySignInRequest: APIRequest {
    typealias Response = SessionAnswer
    static let path = "/v1/passkeys/authentication/verify"
    let challengeID: UUID
    let credential: AuthenticationResponseJSON

    enum CodingKeys: String, CodingKey {
        case credential
        case challengeID = "challenge_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(challengeID.uuidString.lowercased(), forKey: .challengeID)
        try container.encode(credential, forKey: .credential)
    }
}

/// `GET /v1/passkeys` (bearer) → 200 `{"passkeys":[…]}`.
struct PasskeysRequest: APIRequest {
    typealias Response = PasskeyList
    static let method = "GET"
    static let path = "/v1/passkeys"
}

/// `PATCH /v1/passkeys/{id}` (bearer) `{"name"}` → 200 the passkey.
struct RenamePasskeyRequest: APIRequest {
    typealias Response = Passkey
    static let method = "PATCH"
    static let path = "/v1/passkeys/{id}"
    let id: UUID
    let name: String

    var resolvedPath: String { "/v1/passkeys/" + id.uuidString.lowercased() }

    /// Only the name goes in the body; the passkey is in the path.
    enum CodingKeys: String, CodingKey { case name }
}

/// `DELETE /v1/passkeys/{id}` (bearer, privileged) → 204.
struct DeletePasskeyRequest: APIRequest {
    typealias Response = NoContent
    static let method = "DELETE"
    static let path = "/v1/passkeys/{id}"
    static let sendsBody = false
    let id: UUID

    var resolvedPath: String { "/v1/passkeys/" + id.uuidString.lowercased() }
}
