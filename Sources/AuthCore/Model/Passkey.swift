import Foundation

/// `passkeys.id`: one WebAuthn credential of a user, as Latch names it (the credential's own id is bytes).
public enum PasskeyKind: IdentifierKind {}
public typealias PasskeyID = Identifier<PasskeyKind>

/// `passkey_challenges.id`: one challenge handed out by an options call.
public enum PasskeyChallengeKind: IdentifierKind {}
public typealias PasskeyChallengeID = Identifier<PasskeyChallengeKind>

/// The COSE algorithms Latch offers (`pubKeyCredParams`), in the order offered.
public enum PasskeyAlgorithm: Int, Hashable, Sendable, CaseIterable, Codable {
    /// ECDSA on P-256 with SHA-256.
    case es256 = -7
    /// Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256, keys of 2048 bits or more.
    case rs256 = -257
}

/// What a challenge may be spent on: registering a passkey for its user, signing in (no user), or re-authenticating
/// the session of its user.
public enum PasskeyChallengePurpose: String, Hashable, Sendable, CaseIterable {
    case registration
    case authentication
    case reauthentication
}

/// A passkey as stored (`passkeys`). `publicKey` is the COSE_Key exactly as the authenticator sent it; the verifier
/// parses it again, strictly, for every assertion.
public struct PasskeyRecord: Hashable, Sendable {
    public var id: PasskeyID
    public var userID: UserID
    /// The WebAuthn credential id (1…1023 bytes), unique across all users.
    public var credentialID: Data
    public var publicKey: Data
    public var algorithm: PasskeyAlgorithm
    public var signCount: UInt32
    /// BE: the credential may be synced to other devices (a "software" key, `amr` `swk`).
    public var backupEligible: Bool
    /// BS: it is synced now.
    public var backedUp: Bool
    /// `AuthenticatorTransport` values the browser reported, for `excludeCredentials`.
    public var transports: [String]
    /// 16 bytes, all zero when the authenticator does not say (attestation `none`).
    public var aaguid: Data
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: PasskeyID = PasskeyID(), userID: UserID, credentialID: Data, publicKey: Data, algorithm: PasskeyAlgorithm,
        signCount: UInt32, backupEligible: Bool, backedUp: Bool, transports: [String], aaguid: Data, name: String,
        createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.aaguid = aaguid
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// How a sign-in with it is named in `amr`: `swk` when the key may leave the device, else `hwk`.
    public var method: AuthenticationMethod { backupEligible ? .softwareKey : .hardwareKey }
}

/// A challenge handed out by an options call: only its SHA-256 is stored.
public struct NewPasskeyChallenge: Hashable, Sendable {
    public var id: PasskeyChallengeID
    public var purpose: PasskeyChallengePurpose
    /// The user it is bound to: registration and re-authentication; nil for a sign-in.
    public var userID: UserID?
    /// SHA-256 of the 32 challenge bytes.
    public var digest: Data
    public var createdAt: Date
    public var expiresAt: Date

    public init(id: PasskeyChallengeID = PasskeyChallengeID(), purpose: PasskeyChallengePurpose, userID: UserID?,
                digest: Data, createdAt: Date, expiresAt: Date)
    {
        self.id = id
        self.purpose = purpose
        self.userID = userID
        self.digest = digest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What the relying party expects of one ceremony (WebAuthn L3 §7.1 steps 7–14, §7.2 steps 10–16).
public struct PasskeyExpectation: Hashable, Sendable {
    /// SHA-256 of the challenge bytes handed out; the client's challenge must hash to it (compared in constant time).
    public var challengeDigest: Data
    /// The RP ID (`rpIdHash` must be its SHA-256).
    public var rpID: String
    /// `clientDataJSON.origin` must be one of these, exactly.
    public var origins: Set<String>
    /// Registration only: the algorithms offered; the credential's must be one.
    public var algorithms: [PasskeyAlgorithm]

    public init(challengeDigest: Data, rpID: String, origins: Set<String>, algorithms: [PasskeyAlgorithm] = PasskeyAlgorithm.allCases) {
        self.challengeDigest = challengeDigest
        self.rpID = rpID
        self.origins = origins
        self.algorithms = algorithms
    }
}

/// A registration response (`RegistrationResponseJSON`), its base64url fields decoded.
public struct PasskeyRegistrationCredential: Hashable, Sendable {
    /// `rawId`: must equal the credential id in the attested credential data.
    public var rawID: Data
    public var clientDataJSON: Data
    public var attestationObject: Data
    public var transports: [String]

    public init(rawID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = []) {
        self.rawID = rawID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// An authentication response (`AuthenticationResponseJSON`), its base64url fields decoded.
public struct PasskeyAssertionCredential: Hashable, Sendable {
    public var rawID: Data
    public var clientDataJSON: Data
    public var authenticatorData: Data
    public var signature: Data
    /// The user handle the authenticator returned (required: Latch asks for discoverable credentials only).
    public var userHandle: Data?

    public init(rawID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        self.rawID = rawID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// A registration the verifier accepted: what `passkeys` stores.
public struct VerifiedPasskeyRegistration: Hashable, Sendable {
    public var credentialID: Data
    /// The COSE_Key bytes as sent (a strict CBOR map the verifier checked).
    public var publicKey: Data
    public var algorithm: PasskeyAlgorithm
    public var signCount: UInt32
    public var backupEligible: Bool
    public var backedUp: Bool
    public var aaguid: Data
    /// The attestation format as sent, recorded for the operator and never trusted (the project verifies no
    /// attestation statement).
    public var attestationFormat: String

    public init(credentialID: Data, publicKey: Data, algorithm: PasskeyAlgorithm, signCount: UInt32,
                backupEligible: Bool, backedUp: Bool, aaguid: Data, attestationFormat: String)
    {
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
    }
}

/// An assertion the verifier accepted (signature, flags, challenge, origin, RP): what changes on the stored passkey.
/// The sign-count rule is the flow's (`PasskeySignCount`), so that a regression can be audited and mailed.
public struct VerifiedPasskeyAssertion: Hashable, Sendable {
    public var signCount: UInt32
    public var backupEligible: Bool
    public var backedUp: Bool

    public init(signCount: UInt32, backupEligible: Bool, backedUp: Bool) {
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }
}

/// Why a ceremony was refused: one reason per check, named in audit rows and metrics, never told the client (which
/// gets `passkey_rejected`).
public struct PasskeyRejection: Error, Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// Not decodable: bad base64url, JSON, lengths, or authenticator data cut short.
        case malformed
        /// CBOR that is not strict RFC 8949 (indefinite length, duplicate map key, trailing bytes, too deep or
        /// large), or not the structure WebAuthn defines.
        case cbor
        /// `clientDataJSON.type` is not `webauthn.create` / `webauthn.get`.
        case clientDataType = "client_data_type"
        case challenge
        case origin
        case rpIDHash = "rp_id_hash"
        /// UP clear.
        case userPresence = "user_presence"
        /// UV clear.
        case userVerification = "user_verification"
        /// BS set without BE, or BE changed since registration.
        case backupState = "backup_state"
        /// Registration without attested credential data (AT clear), or with extra bytes after it.
        case attestedCredentialData = "attested_credential_data"
        /// A `none` attestation with a non-empty statement.
        case attestationStatement = "attestation_statement"
        /// The COSE key's algorithm was not offered, or does not match its key type.
        case algorithm
        /// A key that is not a valid point on its curve, an RSA key under 2048 bits, or a malformed COSE key.
        case publicKey = "public_key"
        case signature
        /// `rawId` differs from the attested credential id, or it is empty or over 1023 bytes.
        case credentialID = "credential_id"
        /// Sign-in only: no such credential, or it is another user's, or `userHandle` is not its owner's.
        case unknownCredential = "unknown_credential"
        /// Sign-in only: the signature counter did not grow (a cloned authenticator).
        case signCount = "sign_count"
    }

    public var reason: Reason

    public init(_ reason: Reason) { self.reason = reason }
}
