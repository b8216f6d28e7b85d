import COpenSSL
import Foundation

/// An EC P-256 private key held by OpenSSL (`EVP_PKEY`), for ES256 signatures (RFC 7518 §3.4).
///
/// Immutable once made, so one instance signs on any number of threads at once: each signature gets its own
/// `EVP_MD_CTX`, and OpenSSL only reads a shared `EVP_PKEY`.
public final class P256PrivateKey: @unchecked Sendable {
    let key: OpaquePointer

    private init(owning key: OpaquePointer) {
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// A new key from OpenSSL's CSPRNG.
    public static func generate() throws(CryptoError) -> P256PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw failure("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, P256.groupName) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key
        else { throw failure("EVP_PKEY_generate(P-256)") }
        return P256PrivateKey(owning: key)
    }

    /// A key from its DER form (`derRepresentation`: SEC 1 ECPrivateKey, or PKCS #8).
    /// - Throws: `CryptoError.invalidKey` unless the bytes are a P-256 private key.
    public convenience init(derRepresentation der: Data) throws(CryptoError) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
            return d2i_AutoPrivateKey(nil, &cursor, raw.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .invalidKey("not a DER private key")
        }
        guard P256.isP256(parsed) else {
            EVP_PKEY_free(parsed)
            throw .invalidKey("not an EC P-256 key")
        }
        self.init(owning: parsed)
    }

    /// A key from its PEM form: one `PRIVATE KEY` (PKCS #8, as Apple issues its .p8 files) or `EC PRIVATE KEY`
    /// (SEC 1) block, lines of standard base64 between the markers.
    /// - Throws: `CryptoError.invalidKey` unless the text is one such block holding a P-256 private key.
    public convenience init(pemRepresentation pem: String) throws(CryptoError) {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let label = ["PRIVATE KEY", "EC PRIVATE KEY"].first(where: { lines.first == "-----BEGIN \($0)-----" }),
              lines.count > 2, lines.last == "-----END \(label)-----",
              let der = Data(base64Encoded: lines.dropFirst().dropLast().joined())
        else { throw .invalidKey("not a PEM private key") }
        try self.init(derRepresentation: der)
    }

    /// The key as DER (SEC 1 ECPrivateKey with its curve and public point): what is sealed and stored.
    public var derRepresentation: Data {
        get throws(CryptoError) {
            let length = i2d_PrivateKey(key, nil)
            guard length > 0 else { throw Self.failure("i2d_PrivateKey") }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let written = bytes.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return i2d_PrivateKey(key, &cursor)
            }
            guard written == length else { throw Self.failure("i2d_PrivateKey") }
            return Data(bytes)
        }
    }

    /// The public half.
    public var publicKey: P256PublicKey {
        get throws(CryptoError) { try P256PublicKey(x963Representation: try x963PublicKey) }
    }

    /// The public point, uncompressed (`0x04 || x || y`, 65 bytes): the form stored and published (JWK x, y).
    public var x963PublicKey: Data {
        get throws(CryptoError) {
            var bytes = [UInt8](repeating: 0, count: P256.pointByteCount)
            var length = 0
            guard EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, &bytes, bytes.count, &length) == 1,
                  length == P256.pointByteCount, bytes[0] == 0x04
            else { throw Self.failure("EVP_PKEY_get_octet_string_param(pub)") }
            return Data(bytes)
        }
    }

    /// The ES256 signature of `message` (ECDSA over its SHA-256): `r || s`, 64 bytes, as JOSE wants it rather
    /// than the DER that OpenSSL makes, with s ≤ n/2: the one form `P256PublicKey` accepts.
    public func signature(for message: Data) throws(CryptoError) -> Data {
        guard let context = EVP_MD_CTX_new() else { throw Self.failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw Self.failure("EVP_DigestSignInit")
        }
        var der = [UInt8](repeating: 0, count: ECDSASignature.maxDERByteCount)
        var length = der.count
        let signed = message.withUnsafeBytes { bytes in
            EVP_DigestSign(context, &der, &length, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        guard signed == 1 else { throw Self.failure("EVP_DigestSign") }
        guard let raw = ECDSASignature.lowSRaw(fromDER: Data(der.prefix(length))) else {
            throw Self.failure("ECDSA signature conversion")
        }
        return raw
    }

    static func failure(_ operation: String) -> CryptoError {
        .openSSL(operation: operation, detail: OpenSSLErrorText.drain())
    }
}
