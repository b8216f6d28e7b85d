import Foundation

/// The one server secret (`LATCH_SECRET_KEY`): 32 random bytes that never enter the database, so that a copy of
/// the database alone cannot reveal what they protect. Every use derives its own key from it (`SecretKeyDeriver`
/// in LatchCrypto, with a `SecretPurpose`), so one secret serves one-time codes, signing-key encryption and
/// whatever comes next without any two uses sharing a key.
///
/// Prints as `<redacted>`: configuration values get logged.
public struct ServerSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Exactly 32 bytes.
    public let bytes: Data

    public static let byteCount = 32

    /// - Throws: `ServerSecretError` unless `text` is standard base64 of exactly 32 bytes (surrounding whitespace,
    ///   e.g. a file's trailing newline, is ignored).
    public init(base64 text: String) throws(ServerSecretError) {
        let trimmed = text.trimmingWhitespace()
        guard let bytes = Data(base64Encoded: trimmed) else { throw .notBase64 }
        guard bytes.count == Self.byteCount else { throw .wrongLength(bytes.count) }
        self.bytes = bytes
    }

    public init(bytes: Data) throws(ServerSecretError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(bytes.count) }
        self.bytes = bytes
    }

    public var base64: String { bytes.base64EncodedString() }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "ServerSecret(<redacted>)" }
}

/// Why a server secret was refused.
public enum ServerSecretError: Error, Hashable, Sendable, CustomStringConvertible {
    case notBase64
    case wrongLength(Int)

    public var description: String {
        switch self {
        case .notBase64: "is not base64"
        case .wrongLength(let count): "must be 32 bytes (base64 of 32 random bytes), not \(count)"
        }
    }
}

/// What a key derived from the server secret is for. The raw value is the derivation's context string: never
/// change one, or everything protected under it becomes unreadable.
public enum SecretPurpose: String, Sendable, CaseIterable {
    /// HMAC keys of one-time codes (`auth_tokens.code_hmac`).
    case oneTimeCodes = "latch/one-time-codes/v1"
    /// AES-256-GCM keys of the signing keys' private parts.
    case signingKeyEncryption = "latch/signing-key-encryption/v1"
    /// HMAC keys of outbox Message-IDs: the row id is a counter shared by every account and must not show in mail.
    case mailMessageIDs = "latch/mail-message-ids/v1"
    /// AES-256-GCM keys of the TOTP factors' shared secrets.
    case totpSecretEncryption = "latch/totp-secret-encryption/v1"
    /// HMAC keys of recovery codes (`mfa_recovery_codes.code_hmac`).
    case recoveryCodes = "latch/recovery-codes/v1"
    /// AES-256-GCM keys of identity providers' authorization codes and refresh tokens (`provider_jobs`).
    case providerTokenEncryption = "latch/provider-token-encryption/v1"
    /// Seals webhook endpoints' signing secrets at rest (`webhook_endpoints.secret_sealed`).
    case webhookSecretEncryption = "latch/webhook-secret-encryption/v1"
}
