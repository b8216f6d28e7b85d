/// Failures of the cryptographic primitives. None of them carries a password, token or hash.
public enum CryptoError: Error, Sendable, Hashable {
    /// OpenSSL's CSPRNG could not produce bytes (no entropy source): nothing random can be trusted.
    case randomUnavailable(detail: String)
    /// libargon2 refused to hash; `code` is its error code, `message` its text.
    case argon2(code: Int32, message: String)

    /// A stable snake_case code for logs and metrics.
    public var code: String {
        switch self {
        case .randomUnavailable: "random_unavailable"
        case .argon2: "argon2_failure"
        }
    }
}
