import COpenSSL
import Foundation

/// ECDSA P-256 signatures in the two forms that meet here: OpenSSL's DER `SEQUENCE { INTEGER r, INTEGER s }` and
/// JOSE's fixed 64 bytes, `r || s`, each big-endian and left-padded to 32 bytes (RFC 7518 §3.4). Only the low-S
/// form is written or read (`P256GroupOrder` says why).
enum ECDSASignature {
    static let rawByteCount = 64
    /// SEQUENCE header (2) + two INTEGERs of at most 33 bytes with their headers (2 × 35).
    static let maxDERByteCount = 72

    /// The 64-byte low-S form of a DER signature (what OpenSSL's signing makes); nil if it is not DER or a value
    /// does not fit 32 bytes.
    static func lowSRaw(fromDER der: Data) -> Data? {
        guard let order = P256GroupOrder.shared else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
            return d2i_ECDSA_SIG(nil, &cursor, raw.count)
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        guard let r, let s else { return nil }
        // OpenSSL leaves s above n/2 in about half of its signatures; n − s is the same signature's low form.
        let high = order.isHigh(s)
        let twin = high ? order.twin(of: s) : nil
        defer { BN_free(twin) }
        guard let lowS = high ? twin : s else { return nil }
        var output = [UInt8](repeating: 0, count: rawByteCount)
        let half = rawByteCount / 2
        let written = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, Int32(half)) == half && BN_bn2binpad(lowS, base + half, Int32(half)) == half
        }
        return written ? Data(output) : nil
    }

    /// The DER form of a 64-byte signature, for OpenSSL's verify; nil for any other length, and for r or s out of
    /// range (`P256GroupOrder.accepts`: zero, r past n, s past n/2), which are refused before OpenSSL sees them.
    /// `allowingHighS` takes s up to n − 1: for others' signatures, which Latch does not keep per text.
    static func der(fromRaw raw: Data, allowingHighS: Bool = false) -> Data? {
        guard raw.count == rawByteCount, let order = P256GroupOrder.shared else { return nil }
        let half = rawByteCount / 2
        let (r, s) = raw.withUnsafeBytes { bytes -> (OpaquePointer?, OpaquePointer?) in
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            return (BN_bin2bn(base, Int32(half), nil), BN_bin2bn(base.map { $0 + half }, Int32(half), nil))
        }
        guard let r, let s, order.accepts(r: r, s: s, allowingHighS: allowingHighS), let signature = ECDSA_SIG_new()
        else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        // set0 takes ownership of both numbers.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? Data(der) : nil
    }
}
