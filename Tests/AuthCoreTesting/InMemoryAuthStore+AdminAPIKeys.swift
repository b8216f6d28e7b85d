import AuthCore
import Foundation

/// `admin_api_keys`, with the table's unique name and its one-way revocation.
extension InMemoryAuthStore {
    public func insertAPIKey(_ key: AdminAPIKey) throws {
        try locked { state in
            if state.apiKeys.values.contains(where: { $0.name == key.name }) { throw AdminAPIKeyStoreError.nameTaken }
            var stored = key
            stored.revokedAt = nil
            stored.lastUsedAt = nil
            state.apiKeys[key.id] = stored
        }
    }

    public func apiKey(id: String) throws -> AdminAPIKey? {
        try locked { $0.apiKeys[id] }
    }

    public func apiKeys() throws -> [AdminAPIKey] {
        try locked { state in
            state.apiKeys.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    public func revokeAPIKey(id: String, at: Date) throws -> Bool {
        try locked { state in
            guard state.apiKeys[id] != nil, state.apiKeys[id]?.revokedAt == nil else { return false }
            state.apiKeys[id]?.revokedAt = at
            return true
        }
    }

    public func markAPIKeyUsed(id: String, at: Date) throws {
        try locked { state in
            guard let last = state.apiKeys[id].map(\.lastUsedAt), last.map({ $0 < at }) ?? true else { return }
            state.apiKeys[id]?.lastUsedAt = at
        }
    }
}
