/// Failures of the cryptographic primitives. None of them carries a password, token, key or hash.
public enum CryptoError: Error, Sendable, Hashable {
    /// OpenSSL's CSPRNG could not produce bytes (no entropy source): nothing random can be trusted.
    case randomUnavailable(detail: String)
    /// libargon2 refused to hash; `code` is its error code, `message` its text.
    case argon2(code: Int32, message: String)
    /// An OpenSSL call failed; `operation` names it, `detail` is OpenSSL's error queue.
    case openSSL(operation: String, detail: String)
    /// Bytes that should hold a key (or a key of the wrong kind or curve) did not.
    case invalidKey(String)
    /// AES-GCM refused to open a ciphertext: a wrong key, nonce or associated data, or altered bytes.
    case authenticationFailed

    /// A stable snake_case code for logs and metrics.
    public var code: String {
        switch self {
        case .randomUnavailable: "random_unavailable"
        case .argon2: "argon2_failure"
        case .openSSL: "openssl_failure"
        case .invalidKey: "invalid_key"
        case .authenticationFailed: "authentication_failed"
        }
    }
}
