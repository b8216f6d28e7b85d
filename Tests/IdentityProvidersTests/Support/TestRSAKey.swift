import COpenSSL
import Foundation
import LatchCrypto

/// An RSA key pair made by OpenSSL, standing in for a provider's signing key: its JWK and its RS256/PS256
/// signatures.
final class TestRSAKey: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Made once: RSA key generation costs tens of milliseconds.
    static let shared = try! TestRSAKey(bits: 2048)
    static let other = try! TestRSAKey(bits: 2048)

    private let key: OpaquePointer

    init(bits: Int32) throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw Failure(description: "ctx") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key
        else { throw Failure(description: "keygen") }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The public JWK, with `alg` and `use` when given.
    func jwk(kid: String, alg: String? = "RS256", use: String? = "sig") throws -> [String: String] {
        var jwk = ["kty": "RSA", "kid": kid, "n": Base64URL.encode(try number("n")),
                   "e": Base64URL.encode(try number("e"))]
        jwk["alg"] = alg
        jwk["use"] = use
        return jwk
    }

    /// The modulus as bytes: what a forger would key an HMAC with.
    var modulus: Data {
        get throws { try number("n") }
    }

    private func number(_ name: String) throws -> Data {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { throw Failure(description: name) }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        BN_bn2bin(number, &bytes)
        return Data(bytes)
    }

    /// RSASSA-PKCS1-v1_5 (RS256) or, with `pss`, RSASSA-PSS (PS256) over SHA-256.
    func sign(_ message: Data, pss: Bool = false) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key) == 1,
              !pss || (EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1
                  && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1)
        else { throw Failure(description: "init") }
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
