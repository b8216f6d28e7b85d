import Foundation

/// P-256 ECDSA worked apart from LatchCrypto: n as SEC 2 prints it (not as OpenSSL reports it), and the twin
/// n − s in plain byte arithmetic.
enum ECDSAReference {
    /// n of P-256 (SEC 2 v2 §2.4.2), big-endian.
    static let order = bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    /// ⌊n/2⌋: the largest s Latch writes.
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
}
