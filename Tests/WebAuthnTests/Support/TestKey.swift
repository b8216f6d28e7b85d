import AuthCore
import COpenSSL
import Foundation
@testable import WebAuthn

/// A credential key pair made by OpenSSL, as an authenticator holds it: its COSE public key and its signatures in
/// WebAuthn's forms (ES256 DER, Ed25519 raw, RS256 PKCS #1 v1.5).
final class TestKey {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let algorithm: PasskeyAlgorithm
    private let key: OpaquePointer

    private init(_ algorithm: PasskeyAlgorithm, _ key: OpaquePointer) {
        self.algorithm = algorithm
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    static func p256() throws -> TestKey {
        try TestKey(.es256, generate("EC") { EVP_PKEY_CTX_set_group_name($0, "P-256") })
    }

    static func ed25519() throws -> TestKey {
        try TestKey(.edDSA, generate("ED25519") { _ in 1 })
    }

    /// RS256 keys; 1024 bits only to show it refused.
    static func rsa(bits: Int32 = 2048) throws -> TestKey {
        try TestKey(.rs256, generate("RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, bits) })
    }

    private static func generate(_ type: String, _ configure: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw Failure(description: type) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_generate(context, &key) == 1,
              let key
        else { throw Failure(description: "keygen \(type)") }
        return key
    }

    /// The COSE_Key map an authenticator would send for this key (RFC 9053, RFC 8230).
    var cose: CBORValue {
        get throws {
            switch algorithm {
            case .es256:
                let point = try ecPoint
                return .intMap([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(point.dropFirst().prefix(32))),
                                (-3, .bytes(point.suffix(32)))])
            case .edDSA:
                return .intMap([(1, .int(1)), (3, .int(-8)), (-1, .int(6)), (-2, .bytes(try rawPublicKey))])
            case .rs256:
                return .intMap([(1, .int(3)), (3, .int(-257)), (-1, .bytes(try number("n"))),
                                (-2, .bytes(try number("e")))])
            }
        }
    }

    /// `0x04 || x || y`.
    var ecPoint: Data {
        get throws {
            var bytes = [UInt8](repeating: 0, count: 65)
            var length = 0
            guard EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, &bytes, bytes.count, &length) == 1,
                  length == 65
            else { throw Failure(description: "EC point") }
            return Data(bytes)
        }
    }

    private var rawPublicKey: Data {
        get throws {
            var bytes = [UInt8](repeating: 0, count: 32)
            var length = bytes.count
            guard EVP_PKEY_get_raw_public_key(key, &bytes, &length) == 1 else { throw Failure(description: "raw") }
            return Data(bytes.prefix(length))
        }
    }

    private func number(_ name: String) throws -> Data {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { throw Failure(description: name) }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        BN_bn2bin(number, &bytes)
        return Data(bytes)
    }

    /// The signature an authenticator makes over `message` (authenticator data and the client data's hash).
    func sign(_ message: Data) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        // Ed25519 hashes the message itself: no digest.
        let digest = algorithm == .edDSA ? nil : EVP_sha256()
        guard EVP_DigestSignInit(context, nil, digest, nil, key) == 1 else { throw Failure(description: "init") }
        var length = 0
        return try message.withUnsafeBytes { raw in
            let input = raw.bindMemory(to: UInt8.self).baseAddress
            guard EVP_DigestSign(context, nil, &length, input, raw.count) == 1 else { throw Failure(description: "len") }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, input, raw.count) == 1 else {
                throw Failure(description: "sign")
            }
            return Data(signature.prefix(length))
        }
    }
}
