import Foundation

// The options of the two ceremonies in WebAuthn Level 3's JSON form (§5.1.9 `parseCreationOptionsFromJSON`, §5.1.10
// `parseRequestOptionsFromJSON`): what `POST /v1/passkeys/registration/options` and `…/authentication/options` answer
// as `publicKey`, member for member, bytes as unpadded base64url. The platform's passkey API takes them as they are
// (Credential Manager, `navigator.credentials`) or through the helpers of PasskeyAuthorization.swift
// (AuthenticationServices). A member the server leaves out stays out when encoded again; the extensions
// (`extensions`) are not carried.

/// `PublicKeyCredentialRpEntity`: the relying party, whose `id` is the domain passkeys are bound to.
public struct PublicKeyCredentialRpEntity: Hashable, Sendable, Codable {
    /// The RP ID: Latch's host (`LATCH_PASSKEY_RP_ID`); nil means the caller's origin, which an app has none of.
    public var id: String?
    /// The product's name as the platform shows it.
    public var name: String

    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

/// `PublicKeyCredentialUserEntityJSON`: the account the new passkey is for.
public struct PublicKeyCredentialUserEntityJSON: Hashable, Sendable, Codable {
    /// The user handle (32 random bytes from Latch, never the user's id or address), which every assertion returns.
    public var id: Data
    /// The account's address, as the platform lists the passkey.
    public var name: String
    public var displayName: String

    public init(id: Data, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }

    enum CodingKeys: String, CodingKey { case id, name, displayName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeBase64URL(forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        displayName = try container.decode(String.self, forKey: .displayName)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeBase64URL(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(displayName, forKey: .displayName)
    }
}

/// `PublicKeyCredentialParameters`: one algorithm the server accepts, in its order of preference.
public struct PublicKeyCredentialParameters: Hashable, Sendable, Codable {
    /// `"public-key"`.
    public var type: String
    /// A COSE algorithm: -7 (ES256), -8 (EdDSA), -257 (RS256).
    public var alg: Int

    public init(type: String = "public-key", alg: Int) {
        self.type = type
        self.alg = alg
    }
}

/// `PublicKeyCredentialDescriptorJSON`: a credential named by its id (in `excludeCredentials`, `allowCredentials`).
public struct PublicKeyCredentialDescriptorJSON: Hashable, Sendable, Codable {
    /// The credential id.
    public var id: Data
    /// `"public-key"`.
    public var type: String
    /// `AuthenticatorTransport` values (`internal`, `hybrid`, `usb`, …) as the credential's registration reported.
    public var transports: [String]?

    public init(id: Data, type: String = "public-key", transports: [String]? = nil) {
        self.id = id
        self.type = type
        self.transports = transports
    }

    enum CodingKeys: String, CodingKey { case id, type, transports }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeBase64URL(forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        transports = try container.decodeIfPresent([String].self, forKey: .transports)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeBase64URL(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(transports, forKey: .transports)
    }
}

/// `AuthenticatorSelectionCriteria`. Latch asks for a discoverable credential (`residentKey` `"required"`) with
/// user verification (`"required"`), on any authenticator.
public struct AuthenticatorSelectionCriteria: Hashable, Sendable, Codable {
    /// `"platform"` or `"cross-platform"`; nil for either.
    public var authenticatorAttachment: String?
    /// `"discouraged"`, `"preferred"` or `"required"`.
    public var residentKey: String?
    /// WebAuthn Level 1's form of `residentKey == "required"`, kept for older clients.
    public var requireResidentKey: Bool?
    /// `"discouraged"`, `"preferred"` or `"required"`.
    public var userVerification: String?

    public init(authenticatorAttachment: String? = nil, residentKey: String? = nil, requireResidentKey: Bool? = nil,
                userVerification: String? = nil) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}

/// `PublicKeyCredentialCreationOptionsJSON`: what registering a passkey needs (`navigator.credentials.create`).
public struct PublicKeyCredentialCreationOptionsJSON: Hashable, Sendable, Codable {
    public var rp: PublicKeyCredentialRpEntity
    public var user: PublicKeyCredentialUserEntityJSON
    /// The server's challenge (32 random bytes), single use, which the new credential's client data must carry.
    public var challenge: Data
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// Milliseconds the platform may take (Latch: 300000).
    public var timeout: Int?
    /// The user's passkeys, so that one authenticator is not registered twice.
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// `PublicKeyCredentialHint` values (`security-key`, `client-device`, `hybrid`).
    public var hints: [String]?
    /// `"none"`, `"indirect"`, `"direct"` or `"enterprise"` (Latch: `"none"`).
    public var attestation: String?
    public var attestationFormats: [String]?

    public init(rp: PublicKeyCredentialRpEntity, user: PublicKeyCredentialUserEntityJSON, challenge: Data,
                pubKeyCredParams: [PublicKeyCredentialParameters], timeout: Int? = nil,
                excludeCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
                authenticatorSelection: AuthenticatorSelectionCriteria? = nil, hints: [String]? = nil,
                attestation: String? = nil, attestationFormats: [String]? = nil) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.attestationFormats = attestationFormats
    }

    enum CodingKeys: String, CodingKey {
        case rp, user, challenge, pubKeyCredParams, timeout, excludeCredentials, authenticatorSelection, hints
        case attestation, attestationFormats
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rp = try container.decode(PublicKeyCredentialRpEntity.self, forKey: .rp)
        user = try container.decode(PublicKeyCredentialUserEntityJSON.self, forKey: .user)
        challenge = try container.decodeBase64URL(forKey: .challenge)
        pubKeyCredParams = try container.decode([PublicKeyCredentialParameters].self, forKey: .pubKeyCredParams)
        timeout = try container.decodeIfPresent(Int.self, forKey: .timeout)
        excludeCredentials = try container.decodeIfPresent([PublicKeyCredentialDescriptorJSON].self,
                                                           forKey: .excludeCredentials)
        authenticatorSelection = try container.decodeIfPresent(AuthenticatorSelectionCriteria.self,
                                                               forKey: .authenticatorSelection)
        hints = try container.decodeIfPresent([String].self, forKey: .hints)
        attestation = try container.decodeIfPresent(String.self, forKey: .attestation)
        attestationFormats = try container.decodeIfPresent([String].self, forKey: .attestationFormats)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rp, forKey: .rp)
        try container.encode(user, forKey: .user)
        try container.encodeBase64URL(challenge, forKey: .challenge)
        try container.encode(pubKeyCredParams, forKey: .pubKeyCredParams)
        try container.encodeIfPresent(timeout, forKey: .timeout)
        try container.encodeIfPresent(excludeCredentials, forKey: .excludeCredentials)
        try container.encodeIfPresent(authenticatorSelection, forKey: .authenticatorSelection)
        try container.encodeIfPresent(hints, forKey: .hints)
        try container.encodeIfPresent(attestation, forKey: .attestation)
        try container.encodeIfPresent(attestationFormats, forKey: .attestationFormats)
    }
}

/// `PublicKeyCredentialRequestOptionsJSON`: what signing in (or re-authenticating) with a passkey needs
/// (`navigator.credentials.get`). Latch lists no `allowCredentials`: the platform offers the user's discoverable
/// passkeys for `rpId`, and the server learns who it is from the assertion alone.
public struct PublicKeyCredentialRequestOptionsJSON: Hashable, Sendable, Codable {
    /// The server's challenge (32 random bytes), single use, which the assertion's client data must carry.
    public var challenge: Data
    /// Milliseconds the platform may take (Latch: 300000).
    public var timeout: Int?
    /// The RP ID the passkeys are bound to.
    public var rpId: String?
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]?
    /// `"discouraged"`, `"preferred"` or `"required"` (Latch: `"required"`).
    public var userVerification: String?
    /// `PublicKeyCredentialHint` values.
    public var hints: [String]?

    public init(challenge: Data, timeout: Int? = nil, rpId: String? = nil,
                allowCredentials: [PublicKeyCredentialDescriptorJSON]? = nil, userVerification: String? = nil,
                hints: [String]? = nil) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
    }

    enum CodingKeys: String, CodingKey { case challenge, timeout, rpId, allowCredentials, userVerification, hints }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        challenge = try container.decodeBase64URL(forKey: .challenge)
        timeout = try container.decodeIfPresent(Int.self, forKey: .timeout)
        rpId = try container.decodeIfPresent(String.self, forKey: .rpId)
        allowCredentials = try container.decodeIfPresent([PublicKeyCredentialDescriptorJSON].self,
                                                         forKey: .allowCredentials)
        userVerification = try container.decodeIfPresent(String.self, forKey: .userVerification)
        hints = try container.decodeIfPresent([String].self, forKey: .hints)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeBase64URL(challenge, forKey: .challenge)
        try container.encodeIfPresent(timeout, forKey: .timeout)
        try container.encodeIfPresent(rpId, forKey: .rpId)
        try container.encodeIfPresent(allowCredentials, forKey: .allowCredentials)
        try container.encodeIfPresent(userVerification, forKey: .userVerification)
        try container.encodeIfPresent(hints, forKey: .hints)
    }
}
