import COpenSSL
import Foundation

/// AES-256-GCM through OpenSSL's EVP interface: what the signing keys' private parts are stored under
/// (ARCHITECTURE.md, "Signed access tokens").
public enum AESGCM {
    public static let keyByteCount = 32
    /// 96 bits, GCM's native nonce length; a fresh random one per message.
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// What `seal` returns: the ciphertext with its 16-byte tag appended, and the nonce it was sealed with.
    public struct SealedBox: Hashable, Sendable {
        public var ciphertext: Data
        public var nonce: Data

        public init(ciphertext: Data, nonce: Data) {
            self.ciphertext = ciphertext
            self.nonce = nonce
        }
    }

    /// Encrypts `plaintext` under `key` with a fresh random nonce; `associatedData` is authenticated, not stored.
    public static func seal(_ plaintext: Data, key: Data, associatedData: Data) throws(CryptoError) -> SealedBox {
        let nonce = Data(try SecureRandom.bytes(count: nonceByteCount))
        let sealed = try crypt(plaintext, key: key, nonce: nonce, associatedData: associatedData, tag: nil)
        return SealedBox(ciphertext: sealed, nonce: nonce)
    }

    /// Decrypts and authenticates a box made by `seal` with the same key and associated data.
    /// - Throws: `CryptoError.authenticationFailed` for any other key, nonce, associated data or an altered byte.
    public static func open(_ box: SealedBox, key: Data, associatedData: Data) throws(CryptoError) -> Data {
        guard box.ciphertext.count >= tagByteCount, box.nonce.count == nonceByteCount else {
            throw .authenticationFailed
        }
        let body = box.ciphertext.prefix(box.ciphertext.count - tagByteCount)
        let tag = box.ciphertext.suffix(tagByteCount)
        return try crypt(Data(body), key: key, nonce: box.nonce, associatedData: associatedData, tag: Data(tag))
    }

    /// One pass of GCM: encrypts (and appends the tag) when `tag` is nil, else decrypts and checks `tag`.
    private static func crypt(
        _ input: Data, key: Data, nonce: Data, associatedData: Data, tag: Data?
    ) throws(CryptoError) -> Data {
        guard key.count == keyByteCount else { throw .invalidKey("AES-256-GCM needs a 32-byte key") }
        guard let context = EVP_CIPHER_CTX_new() else { throw openSSLFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        let encrypting: Int32 = tag == nil ? 1 : 0
        var output = [UInt8](repeating: 0, count: input.count + tagByteCount)
        var length: Int32 = 0
        var total = 0
        let ok = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBytes { nonceBytes in
                EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil, encrypting) == 1
                    && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceByteCount), nil) == 1
                    && EVP_CipherInit_ex(context, nil, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress,
                                         nonceBytes.bindMemory(to: UInt8.self).baseAddress, encrypting) == 1
            }
        }
        guard ok else { throw openSSLFailure("EVP_CipherInit_ex(aes-256-gcm)") }
        if !associatedData.isEmpty {
            let added = associatedData.withUnsafeBytes { aad in
                EVP_CipherUpdate(context, nil, &length, aad.bindMemory(to: UInt8.self).baseAddress, Int32(aad.count))
            }
            guard added == 1 else { throw openSSLFailure("EVP_CipherUpdate(aad)") }
        }
        if !input.isEmpty {
            let updated = input.withUnsafeBytes { bytes in
                EVP_CipherUpdate(context, &output, &length, bytes.bindMemory(to: UInt8.self).baseAddress,
                                 Int32(bytes.count))
            }
            guard updated == 1 else { throw openSSLFailure("EVP_CipherUpdate") }
            total = Int(length)
        }
        if var tag {
            let set = tag.withUnsafeMutableBytes { bytes in
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), bytes.baseAddress)
            }
            guard set == 1 else { throw openSSLFailure("EVP_CTRL_GCM_SET_TAG") }
            let finished = output.withUnsafeMutableBufferPointer { buffer in
                EVP_CipherFinal_ex(context, buffer.baseAddress.map { $0 + total }, &length)
            }
            // A wrong tag is the expected failure here, not OpenSSL's: leave nothing in its error queue.
            guard finished == 1 else {
                ERR_clear_error()
                throw .authenticationFailed
            }
            return Data(output.prefix(total + Int(length)))
        }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherFinal_ex(context, buffer.baseAddress.map { $0 + total }, &length)
        }
        guard finished == 1 else { throw openSSLFailure("EVP_CipherFinal_ex") }
        total += Int(length)
        let tagged = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), buffer.baseAddress.map { $0 + total })
        }
        guard tagged == 1 else { throw openSSLFailure("EVP_CTRL_GCM_GET_TAG") }
        return Data(output.prefix(total + tagByteCount))
    }

    private static func openSSLFailure(_ operation: String) -> CryptoError {
        .openSSL(operation: operation, detail: OpenSSLErrorText.drain())
    }
}
