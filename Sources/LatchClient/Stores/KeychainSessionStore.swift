#if canImport(Security)
import Foundation
import Security

/// Keeps the session, the device token and the pending sign-in by mail in the Keychain as generic passwords of
/// `service` (accounts `session`, `device_token`, `pending_email_signin`).
///
/// Readable after the first unlock, so a background refresh works while the screen is locked, and only on this
/// device (`…ThisDeviceOnly`): a backup restored elsewhere must not carry the session, the device's trust or a
/// sign-in's binding secret.
public struct KeychainSessionStore: SessionStore {
    public let service: String
    /// A Keychain access group shared with app extensions, if any.
    public let accessGroup: String?

    public init(service: String = "latch", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func loadSession() throws -> Session? {
        try read("session").map { try APIJSON.decoder.decode(Session.self, from: $0) }
    }

    public func saveSession(_ session: Session) throws {
        try write("session", APIJSON.encoder.encode(session))
    }

    public func clearSession() throws {
        try delete("session")
    }

    public func loadDeviceToken() throws -> String? {
        try read("device_token").map { String(decoding: $0, as: UTF8.self) }
    }

    public func saveDeviceToken(_ token: String) throws {
        try write("device_token", Data(token.utf8))
    }

    public func loadPendingEmailSignIn() throws -> PendingEmailSignIn? {
        try read("pending_email_signin").map { try APIJSON.decoder.decode(PendingEmailSignIn.self, from: $0) }
    }

    public func savePendingEmailSignIn(_ attempt: PendingEmailSignIn) throws {
        try write("pending_email_signin", APIJSON.encoder.encode(attempt))
    }

    public func clearPendingEmailSignIn() throws {
        try delete("pending_email_signin")
    }

    private func query(_ account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func read(_ account: String) throws -> Data? {
        var query = query(account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        guard let data = result as? Data else { throw KeychainError(status: errSecDecode) }
        return data
    }

    private func write(_ account: String, _ data: Data) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query(account) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query(account).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    private func delete(_ account: String) throws {
        let status = SecItemDelete(query(account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed with `status` (an `OSStatus`, see `SecCopyErrorMessageString`).
public struct KeychainError: Error, Hashable, Sendable {
    public let status: OSStatus
}
#endif
