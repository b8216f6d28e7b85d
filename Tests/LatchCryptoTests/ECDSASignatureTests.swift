import Foundation
@testable import LatchCrypto
import Testing

/// ES256/ECDSASignature.swift and P256GroupOrder.swift: signatures are written low-S, and a high s is refused
/// although it verifies, so that one token has one text.
@Suite struct ECDSASignatureTests {
    @Test func everySignatureIsWrittenLowS() throws {
        let key = try P256PrivateKey.generate()
        let publicKey = try key.publicKey
        let message = Data("header.payload".utf8)
        // OpenSSL's s is high about half the time, so 200 signatures unfolded would all be low once in 2^200.
        for _ in 0..<200 {
            let signature = try key.signature(for: message)
            #expect(ECDSAReference.isLow(ECDSAReference.s(of: signature)), "\(signature.base64EncodedString())")
            #expect(publicKey.isValidSignature(signature, for: message))
        }
    }

    @Test func theHighSTwinOfAValidSignatureVerifiesInOpenSSLButIsRefused() throws {
        let key = try P256PrivateKey.generate()
        let publicKey = try key.publicKey
        let message = Data("header.payload".utf8)
        let signature = try key.signature(for: message)
        let twin = ECDSAReference.twin(of: signature)
        #expect(!ECDSAReference.isLow(ECDSAReference.s(of: twin)))
        #expect(ECDSAReference.openSSLVerifies(twin, for: message, with: publicKey), "a real second signature")
        #expect(!publicKey.isValidSignature(twin, for: message))
        #expect(publicKey.isValidSignature(signature, for: message))
    }

    /// At the boundary, with a key solved so that both forms are real signatures: s = ⌊n/2⌋ verifies, and its
    /// twin n − s = ⌊n/2⌋ + 1, which OpenSSL takes, is refused.
    @Test func sUpToHalfTheOrderIsAcceptedAndOneMoreIsRefused() throws {
        let message = Data("boundary".utf8)
        let half = ECDSAReference.halfOrder
        let (key, atHalf) = try ECDSAReference.keySolved(for: half, message: message)
        #expect(ECDSAReference.openSSLVerifies(atHalf, for: message, with: key))
        #expect(key.isValidSignature(atHalf, for: message), "s = ⌊n/2⌋ is low")
        let pastHalf = ECDSAReference.twin(of: atHalf)
        #expect(ECDSAReference.s(of: pastHalf)
            == ECDSAReference.bytes("7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A9"))
        #expect(ECDSAReference.openSSLVerifies(pastHalf, for: message, with: key))
        #expect(!key.isValidSignature(pastHalf, for: message), "s = ⌊n/2⌋ + 1 is high")
    }

    /// What reaches OpenSSL's verify at all: 1 ≤ r < n and 1 ≤ s ≤ ⌊n/2⌋; everything else is refused before.
    @Test func onlyRAndSInRangeAreWellFormed() {
        let n = ECDSAReference.order
        let half = ECDSAReference.halfOrder
        let zero = [UInt8](repeating: 0, count: 32)
        let one = Array(zero.dropLast()) + [1]
        let nMinusOne = ECDSAReference.difference(n, one)
        let halfPlusOne = ECDSAReference.difference(n, half)
        func wellFormed(_ r: [UInt8], _ s: [UInt8]) -> Bool { ECDSASignature.der(fromRaw: Data(r + s)) != nil }

        #expect(wellFormed(one, one) && wellFormed(nMinusOne, half), "the extremes of the accepted range")
        #expect(!wellFormed(one, halfPlusOne), "s = ⌊n/2⌋ + 1")
        #expect(!wellFormed(one, nMinusOne) && !wellFormed(one, n) && !wellFormed(one, zero))
        #expect(!wellFormed(n, one) && !wellFormed(zero, one) && !wellFormed([UInt8](repeating: 0xFF, count: 32), one))
    }
}
