import Foundation

// The results of the two ceremonies in WebAuthn Level 3's JSON form (§5.1.8 `PublicKeyCredential.toJSON()`): what
// `POST /v1/passkeys/registration/verify`, `…/authentication/verify` and `POST /v1/reauthenticate` take as
// `credential`, bytes as unpadded base64url. A browser's or Credential Manager's JSON decodes into them as it is;
// on Apple platforms PasskeyAuthorization.swift makes them of AuthenticationServices' results. The extension outputs
// (`clientExtensionResults`) are not carried: they encode as `{}`, and whatever is received is ignored, as the
// server ignores it.

/// `AuthenticatorAttestationResponseJSON`: the authenticator's answer to a registration.
public struct AuthenticatorAttestationResponseJSON: Hashable, Sendable, Codable {
    /// The client data the platform made (type `webauthn.create`, the challenge, the origin), exactly as signed.
    public var clientDataJSON: Data
    /// The CBOR attestation object: the authenticator data with the new public key, and the (`none`) statement.
    public var attestationObject: Data
    /// `AuthenticatorTransport` values, for the server's later `excludeCredentials`.
    public var transports: [String]?
    /// The conveniences WebAuthn Level 3 adds (all inside `attestationObject` too); the server reads none of them.
    public var authenticatorData: Data?
    public var publicKey: Data?
    public var publicKeyAlgorithm: Int?

    public init(clientDataJSON: Data, attestationObject: Data, transports: [String]? = nil,
                authenticatorData: Data? = nil, publicKey: Data? = nil, publicKeyAlgorithm: Int? = nil) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.authenticatorData = authenticatorData
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
    }

    enum CodingKeys: String, CodingKey {
        case clientDataJSON, attestationObject, transports, authenticatorData, publicKey, publicKeyAlgorithm
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try container.decodeBase64URL(forKey: .clientDataJSON)
        attestationObject = try container.decodeBase64URL(forKey: .attestationObject)
        transports = try container.decodeIfPresent([String].self, forKey: .transports)
        authenticatorData = try container.decodeBase64URLIfPresent(forKey: .authenticatorData)
        publicKey = try container.decodeBase64URLIfPresent(forKey: .publicKey)
        publicKeyAlgorithm = try container.decodeIfPresent(Int.self, forKey: .publicKeyAlgorithm)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeBase64URL(clientDataJSON, forKey: .clientDataJSON)
        try container.encodeBase64URL(attestationObject, forKey: .attestationObject)
        try container.encodeIfPresent(transports, forKey: .transports)
        try container.encodeBase64URLIfPresent(authenticatorData, forKey: .authenticatorData)
        try container.encodeBase64URLIfPresent(publicKey, forKey: .publicKey)
        try container.encodeIfPresent(publicKeyAlgorithm, forKey: .publicKeyAlgorithm)
    }
}

/// `AuthenticatorAssertionResponseJSON`: the authenticator's signature over a sign-in's challenge.
public struct AuthenticatorAssertionResponseJSON: Hashable, Sendable, Codable {
    /// The client data the platform made (type `webauthn.get`, the challenge, the origin), exactly as signed.
    public var clientDataJSON: Data
    public var authenticatorData: Data
    /// Over `authenticatorData` and the SHA-256 of `clientDataJSON`.
    public var signature: Data
    /// The user handle the passkey was registered with (`PublicKeyCredentialUserEntityJSON.id`): required by Latch,
    /// which asks for discoverable credentials only, to tell whose passkey it is.
    public var userHandle: Data?
    public var attestationObject: Data?

    public init(clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
                attestationObject: Data? = nil) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attestationObject = attestationObject
    }

    enum CodingKeys: String, CodingKey {
        case clientDataJSON, authenticatorData, signature, userHandle, attestationObject
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try container.decodeBase64URL(forKey: .clientDataJSON)
        authenticatorData = try container.decodeBase64URL(forKey: .authenticatorData)
        signature = try container.decodeBase64URL(forKey: .signature)
        userHandle = try container.decodeBase64URLIfPresent(forKey: .userHandle)
        attestationObject = try container.decodeBase64URLIfPresent(forKey: .attestationObject)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeBase64URL(clientDataJSON, forKey: .clientDataJSON)
        try container.encodeBase64URL(authenticatorData, forKey: .authenticatorData)
        try container.encodeBase64URL(signature, forKey: .signature)
        try container.encodeBase64URLIfPresent(userHandle, forKey: .userHandle)
        try container.encodeBase64URLIfPresent(attestationObject, forKey: .attestationObject)
    }
}

/// `PublicKeyCredential.toJSON()` of either ceremony: the credential's id and type around the authenticator's
/// `Response` (WebAuthn L3 `RegistrationResponseJSON` and `AuthenticationResponseJSON` differ only in it).
public struct PublicKeyCredentialJSON<Response: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
    /// The credential's id (`rawId`; `id` is the same bytes as text).
    public var rawID: Data
    public var response: Response
    /// `"platform"` or `"cross-platform"`, when the platform says.
    public var authenticatorAttachment: String?
    /// `"public-key"`.
    public var type: String

    public init(rawID: Data, response: Response, authenticatorAttachment: String? = nil, type: String = "public-key") {
        self.rawID = rawID
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.type = type
    }

    /// `id`: the credential id as unpadded base64url.
    public var id: String { Base64URL.encode(rawID) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CredentialCodingKeys.self)
        rawID = try container.decodeCredentialID()
        response = try container.decode(Response.self, forKey: .response)
        authenticatorAttachment = try container.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
        type = try container.decode(String.self, forKey: .type)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CredentialCodingKeys.self)
        try container.encodeCredential(rawID: rawID, attachment: authenticatorAttachment, type: type)
        try container.encode(response, forKey: .response)
    }
}

/// `RegistrationResponseJSON`: a new passkey, for `LatchClient.registerPasskey(challengeID:credential:name:)`.
public typealias RegistrationResponseJSON = PublicKeyCredentialJSON<AuthenticatorAttestationResponseJSON>

/// `AuthenticationResponseJSON`: a passkey's assertion, for `LatchClient.signInWithPasskey(challengeID:credential:)`
/// and `reauthenticate(withPasskey:challengeID:)`.
public typealias AuthenticationResponseJSON = PublicKeyCredentialJSON<AuthenticatorAssertionResponseJSON>

/// The members both `…ResponseJSON` share.
enum CredentialCodingKeys: String, CodingKey {
    case id, rawId, response, authenticatorAttachment, clientExtensionResults, type
}

/// `AuthenticationExtensionsClientOutputsJSON` with no outputs: `{}`.
private struct NoExtensionOutputs: Encodable {}

extension KeyedDecodingContainer where Key == CredentialCodingKeys {
    /// `rawId`, which `id` must spell exactly (WebAuthn: the same bytes; the server refuses a difference).
    func decodeCredentialID() throws -> Data {
        let rawID = try decodeBase64URL(forKey: .rawId)
        guard try decode(String.self, forKey: .id) == Base64URL.encode(rawID) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: self, debugDescription: "id is not rawId")
        }
        return rawID
    }
}

extension KeyedEncodingContainer where Key == CredentialCodingKeys {
    /// `id`, `rawId`, `authenticatorAttachment` (when known), `clientExtensionResults` (`{}`) and `type`.
    mutating func encodeCredential(rawID: Data, attachment: String?, type: String) throws {
        try encodeBase64URL(rawID, forKey: .id)
        try encodeBase64URL(rawID, forKey: .rawId)
        try encodeIfPresent(attachment, forKey: .authenticatorAttachment)
        try encode(NoExtensionOutputs(), forKey: .clientExtensionResults)
        try encode(type, forKey: .type)
    }
}
