import Foundation

/// `admin_api_keys`: the admin API's keys (`AdminAPIKeys`). Implemented in LatchStore; part of `AuthStore`, so a
/// key's creation or revocation commits with its audit row.
public protocol AdminAPIKeyStore: Sendable {
    /// Stores a new key.
    /// - Throws: `AdminAPIKeyStoreError.nameTaken` if another key has its name; nothing is written then.
    func insertAPIKey(_ key: AdminAPIKey) throws

    /// The key with this id, revoked and expired ones too; nil for none.
    func apiKey(id: String) throws -> AdminAPIKey?

    /// Every key, oldest first (then by id).
    func apiKeys() throws -> [AdminAPIKey]

    /// Revokes the key at `at`. Returns false, and changes nothing, when there is no such key or it is revoked
    /// already (its first revocation time stays).
    func revokeAPIKey(id: String, at: Date) throws -> Bool

    /// Records a successful call at `at`, unless the stored `lastUsedAt` is later (two instances may race).
    func markAPIKeyUsed(id: String, at: Date) throws
}
