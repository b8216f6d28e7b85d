import AuthCore
import CArgon2
import COpenSSL
import Foundation

/// Argon2id password hashing with libargon2, producing and checking PHC strings.
///
/// A password is NFKC-normalized, then hashed as its UTF-8 bytes (NIST 800-63B §5.1.1.2), so the same password
/// typed on keyboards that compose accents differently still verifies. Each call is CPU- and memory-bound
/// (`parameters.memoryKiB` per call in flight): run it on a bounded pool.
public struct Argon2idHasher: PasswordHasher {
    /// Random salt bytes per hash.
    public static let saltLength = 16
    /// Hash bytes per PHC string.
    public static let hashLength = 32
    /// The Argon2 version written and expected (0x13).
    static let version = 19

    /// The parameters new hashes use and `needsRehash` compares against.
    public let parameters: Argon2Parameters

    public init(parameters: Argon2Parameters = .owasp) {
        self.parameters = parameters
    }

    /// A PHC string with a fresh 16-byte salt. Throws `CryptoError` if randomness or libargon2 fails.
    public func hash(_ password: String) throws -> String {
        let salt = try SecureRandom.bytes(count: Self.saltLength)
        let (t, m, p) = (UInt32(parameters.iterations), UInt32(parameters.memoryKiB), UInt32(parameters.parallelism))
        let encodedLength = argon2_encodedlen(t, m, p, UInt32(salt.count), UInt32(Self.hashLength), Argon2_id)
        var encoded = [CChar](repeating: 0, count: encodedLength)
        var bytes = Self.passwordBytes(password)
        defer { Self.wipe(&bytes) }
        let status = bytes.withUnsafeBytes { pwd in
            argon2id_hash_encoded(
                t, m, p, pwd.baseAddress, pwd.count, salt, salt.count, Self.hashLength, &encoded, encoded.count
            )
        }
        guard status == ARGON2_OK.rawValue else {
            throw CryptoError.argon2(code: status, message: String(cString: argon2_error_message(status)))
        }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `phc`. False, never a crash, for empty, malformed or non-argon2id strings,
    /// and for strings whose costs exceed `Argon2Parameters`' bounds (a hostile row must not exhaust memory).
    public func verify(_ password: String, against phc: String) -> Bool {
        guard let parsed = Argon2PHCString(parsing: phc), parsed.variant == "argon2id" else { return false }
        guard parsed.version == Self.version else { return false }
        var bytes = Self.passwordBytes(password)
        defer { Self.wipe(&bytes) }
        let status = bytes.withUnsafeBytes { pwd in
            phc.withCString { encoded in argon2id_verify(encoded, pwd.baseAddress, pwd.count) }
        }
        return status == ARGON2_OK.rawValue
    }

    /// True when `phc` is not an argon2id v19 string with exactly the configured m, t, p, salt and hash sizes
    /// (including when it is malformed): the caller should store a fresh hash after a successful sign-in.
    public func needsRehash(_ phc: String) -> Bool {
        guard let parsed = Argon2PHCString(parsing: phc) else { return true }
        return parsed.variant != "argon2id"
            || parsed.version != Self.version
            || parsed.memoryKiB != parameters.memoryKiB
            || parsed.iterations != parameters.iterations
            || parsed.parallelism != parameters.parallelism
            || parsed.salt.count != Self.saltLength
            || parsed.hash.count != Self.hashLength
    }

    private static func passwordBytes(_ password: String) -> [UInt8] {
        Array(password.precomposedStringWithCompatibilityMapping.utf8)
    }

    /// Zeroes our copy of the password; the caller's String is beyond reach, but no extra copy lingers.
    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { OPENSSL_cleanse(base, raw.count) }
        }
    }
}
