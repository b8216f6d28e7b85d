import Foundation
@testable import LatchCrypto
import Testing

/// ES256/ECDSASignature.swift and P256GroupOrder.swift: signatures are written low-S, so that one token has one
/// text.
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
}
