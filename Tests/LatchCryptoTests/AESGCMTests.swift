import Foundation
import LatchCrypto
import Testing

/// AESGCM.swift.
@Suite struct AESGCMTests {
    /// The GCM specification's test case 16 (AES-256, 96-bit IV, with associated data), checked against Python's
    /// `cryptography` as well when it was written here.
    @Test func opensTheGCMSpecificationsTestCase16() throws {
        let key = Data(hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let box = AESGCM.SealedBox(
            ciphertext: Data(hex: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b0"
                + "8b1056828838c5f61e6393ba7a0abcc9f662" + "76fc6ece0f4e1768cddf8853bb2d551b"),
            nonce: Data(hex: "cafebabefacedbaddecaf888"))
        let opened = try AESGCM.open(box, key: key, associatedData: Data(hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2"))
        #expect(opened == Data(hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e24"
            + "49a6b525b16aedf5aa0de657ba637b39"))
    }

    @Test func sealsWithAFreshNonceAndOpensOnlyWithTheSameKeyNonceAndData() throws {
        let key = Data(repeating: 7, count: 32)
        let aad = Data("kid-1".utf8)
        let plaintext = Data("a private key".utf8)
        let box = try AESGCM.seal(plaintext, key: key, associatedData: aad)
        #expect(box.nonce.count == 12 && box.ciphertext.count == plaintext.count + 16)
        #expect(try AESGCM.seal(plaintext, key: key, associatedData: aad).nonce != box.nonce)
        #expect(try AESGCM.open(box, key: key, associatedData: aad) == plaintext)

        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(box, key: Data(repeating: 8, count: 32), associatedData: aad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(box, key: key, associatedData: Data("kid-2".utf8))
        }
        for index in [0, box.ciphertext.count - 1] {  // a byte of the ciphertext, a byte of the tag
            var altered = box
            altered.ciphertext[index] ^= 1
            #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(altered, key: key, associatedData: aad) }
        }
        var otherNonce = box
        otherNonce.nonce[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(otherNonce, key: key, associatedData: aad) }
        #expect(throws: CryptoError.self) { try AESGCM.seal(plaintext, key: Data(count: 16), associatedData: aad) }
    }
}
