import Foundation

/// One of the signed-in user's passkeys, as `LatchClient.passkeys()` lists them: an entry of "passkeys" to show, to
/// rename (`renamePasskey(id:name:)`) and to remove (`deletePasskey(id:)`). Holds neither the key nor the credential
/// id.
public struct Passkey: Hashable, Sendable, Codable, Identifiable {
    public let id: UUID
    /// The name given at registration or since ("Passkey" unless the app or the user chose one).
    public let name: String
    public let createdAt: Date
    /// When it last signed in or proved presence; nil if never.
    public let lastUsedAt: Date?
    /// Whether it may be synced to the user's other devices (iCloud Keychain, Google Password Manager): a synced
    /// passkey outlives the device it was made on.
    public let backupEligible: Bool
    /// Whether it is synced now.
    public let backedUp: Bool
    /// `AuthenticatorTransport` values (`internal`, `hybrid`, `usb`, …) its registration reported.
    public let transports: [String]
    /// The authenticator model's AAGUID; all zeros when the authenticator does not say (attestation `none`).
    public let aaguid: UUID
    /// Its COSE algorithm: -7 (ES256), -8 (EdDSA) or -257 (RS256).
    public let algorithm: Int

    public init(id: UUID, name: String, createdAt: Date, lastUsedAt: Date?, backupEligible: Bool, backedUp: Bool,
                transports: [String], aaguid: UUID, algorithm: Int) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.aaguid = aaguid
        self.algorithm = algorithm
    }

    enum CodingKeys: String, CodingKey {
        case id, name, transports, aaguid, algorithm
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
    }
}

extension Passkey: APIResponse {}

/// `{"passkeys":[…]}`.
struct PasskeyList: Decodable, APIResponse {
    let passkeys: [Passkey]
}
