import COpenSSL
import Foundation
@testable import LatchCrypto

/// P-256 ECDSA worked apart from LatchCrypto's rules, so that what those rules refuse is shown to be a real
/// signature: n as SEC 2 prints it (not as OpenSSL reports it), the twin n − s in plain byte arithmetic, OpenSSL's
/// verify without Latch's range check, and a key solved for a signature whose s the test chooses.
enum ECDSAReference {
    struct Failure: Error {}

    /// n of P-256 (SEC 2 v2 §2.4.2), big-endian.
    static let order = bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    /// ⌊n/2⌋: the largest s Latch writes or accepts.
    static let halfOrder = bytes("7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A8")

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { UInt8(ascii: "0") ... UInt8(ascii: "9") ~= $0 ? $0 - 48 : $0 - 55 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    static func r(of signature: Data) -> [UInt8] { Array(signature.prefix(32)) }
    static func s(of signature: Data) -> [UInt8] { Array(signature.suffix(32)) }

    /// s ≤ ⌊n/2⌋ (equal-length big-endian bytes compare as the numbers do).
    static func isLow(_ s: [UInt8]) -> Bool { !halfOrder.lexicographicallyPrecedes(s) }

    /// (r, n − s): the other signature ECDSA accepts for the same key and message.
    static func twin(of signature: Data) -> Data {
        Data(r(of: signature) + difference(order, s(of: signature)))
    }

    /// a − b for 32-byte big-endian numbers, a ≥ b.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count)
        var borrow = 0
        for index in a.indices.reversed() {
            let digit = Int(a[index]) - Int(b[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            result[index] = UInt8(digit + borrow * 256)
        }
        return result
    }

    /// Whether OpenSSL alone, without Latch's range check of r and s, verifies `signature` (`r || s`).
    static func openSSLVerifies(_ signature: Data, for message: Data, with key: P256PublicKey) -> Bool {
        guard signature.count == 64, let parsed = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(parsed) }
        let r = BN_bin2bn(r(of: signature), 32, nil)
        let s = BN_bin2bn(s(of: signature), 32, nil)
        guard let r, let s, ECDSA_SIG_set0(parsed, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        var der = [UInt8](repeating: 0, count: Int(i2d_ECDSA_SIG(parsed, nil)))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(parsed, &cursor)
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.key) == 1
            && message.withUnsafeBytes { bytes in
                EVP_DigestVerify(context, der, der.count, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            } == 1
        ERR_clear_error()
        return verified
    }

    /// A public key under which `r || s` is a valid signature of `message`, for an s of the test's choosing: a
    /// signer's s is random, so the boundary ⌊n/2⌋ cannot be waited for. With a random k, R = kG and r = R.x mod n,
    /// the private key d = r⁻¹(s·k − z) mod n makes ECDSA's equation s = k⁻¹(z + r·d) hold (z: SHA-256 of message).
    static func keySolved(for s: [UInt8], message: Data) throws -> (key: P256PublicKey, signature: Data) {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { throw Failure() }
        defer { EC_GROUP_free(group) }
        guard let context = BN_CTX_new() else { throw Failure() }
        defer { BN_CTX_free(context) }
        let n = EC_GROUP_get0_order(group)
        let (k, x, y, r, rInverse, t, d) = (BN_new(), BN_new(), BN_new(), BN_new(), BN_new(), BN_new(), BN_new())
        let z = BN_bin2bn(Array(SHA256.hash(message)), 32, nil)
        let chosen = BN_bin2bn(s, 32, nil)
        defer { for number in [k, x, y, r, rInverse, t, d, z, chosen] { BN_free(number) } }
        let (point, publicPoint) = (EC_POINT_new(group), EC_POINT_new(group))
        defer {
            EC_POINT_free(point)
            EC_POINT_free(publicPoint)
        }
        guard BN_rand_range(k, n) == 1, BN_is_zero(k) == 0,
              EC_POINT_mul(group, point, k, nil, nil, context) == 1,
              EC_POINT_get_affine_coordinates(group, point, x, y, context) == 1,
              BN_nnmod(r, x, n, context) == 1, BN_mod_inverse(rInverse, r, n, context) != nil,
              BN_mod_mul(t, chosen, k, n, context) == 1, BN_mod_sub(t, t, z, n, context) == 1,
              BN_mod_mul(d, rInverse, t, n, context) == 1,
              EC_POINT_mul(group, publicPoint, d, nil, nil, context) == 1
        else { throw Failure() }
        var encoded = [UInt8](repeating: 0, count: 65)
        guard EC_POINT_point2oct(group, publicPoint, POINT_CONVERSION_UNCOMPRESSED, &encoded, 65, context) == 65
        else { throw Failure() }
        var rBytes = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(r, &rBytes, 32) == 32 else { throw Failure() }
        return (try P256PublicKey(x963Representation: Data(encoded)), Data(rBytes + s))
    }
}
