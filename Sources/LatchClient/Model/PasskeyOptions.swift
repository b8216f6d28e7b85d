import Foundation

/// What registering a passkey starts with (`LatchClient.passkeyRegistrationOptions()`): the challenge's id to send
/// back, and the options to hand the platform (AuthenticationServices through `platformRequest()`, or as JSON to
/// Credential Manager or a browser). The challenge works once, for `publicKey.timeout` milliseconds (5 minutes).
public struct PasskeyRegistrationOptions: Hashable, Sendable, Codable {
    /// Goes back with the new credential (`registerPasskey(challengeID:credential:name:)`).
    public let challengeID: UUID
    /// `PublicKeyCredentialCreationOptionsJSON`.
    public let publicKey: PublicKeyCredentialCreationOptionsJSON

    public init(challengeID: UUID, publicKey: PublicKeyCredentialCreationOptionsJSON) {
        self.challengeID = challengeID
        self.publicKey = publicKey
    }

    enum CodingKeys: String, CodingKey {
        case challengeID = "challenge_id"
        case publicKey
    }

    /// `challenge_id` lowercased, as the server writes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(challengeID.uuidString.lowercased(), forKey: .challengeID)
        try container.encode(publicKey, forKey: .publicKey)
    }
}

extension PasskeyRegistrationOptions: APIResponse {}

/// What signing in or re-authenticating with a passkey starts with (`LatchClient.passkeyAuthenticationOptions()`,
/// `passkeyReauthenticationOptions()`): the challenge's id to send back, and the options to hand the platform. The
/// challenge works once, for `publicKey.timeout` milliseconds (5 minutes), and only for what it was asked for: a
/// sign-in's challenge does not re-authenticate, nor the other way round.
public struct PasskeyAuthenticationOptions: Hashable, Sendable, Codable {
    /// Goes back with the assertion (`signInWithPasskey(challengeID:credential:)`,
    /// `reauthenticate(withPasskey:challengeID:)`).
    public let challengeID: UUID
    /// `PublicKeyCredentialRequestOptionsJSON`.
    public let publicKey: PublicKeyCredentialRequestOptionsJSON

    public init(challengeID: UUID, publicKey: PublicKeyCredentialRequestOptionsJSON) {
        self.challengeID = challengeID
        self.publicKey = publicKey
    }

    enum CodingKeys: String, CodingKey {
        case challengeID = "challenge_id"
        case publicKey
    }

    /// `challenge_id` lowercased, as the server writes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(challengeID.uuidString.lowercased(), forKey: .challengeID)
        try container.encode(publicKey, forKey: .publicKey)
    }
}

extension PasskeyAuthenticationOptions: APIResponse {}
