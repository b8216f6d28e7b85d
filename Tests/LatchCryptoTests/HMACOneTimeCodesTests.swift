import AuthCore
import Foundation
import LatchCrypto
import Testing

@Suite struct HMACOneTimeCodesTests {
    let codes = HMACOneTimeCodes(secret: try! ServerSecret(bytes: Data(repeating: 3, count: 32)))

    @Test func codesAreEightDigitsAndSpreadEvenly() {
        let sample = (0..<20_000).map { _ in codes.makeCode() }
        #expect(sample.allSatisfy(OneTimeCode.isWellFormed))
        #expect(Set(sample).count > 19_990, "10^8 values: repeats in 20,000 draws are rare")
        // Every leading digit about 2,000 times; a modulo bias or a stuck byte would skew this far more.
        var counts = [Int](repeating: 0, count: 10)
        for code in sample { counts[Int(String(code.first!))!] += 1 }
        #expect(counts.allSatisfy { (1_700...2_300).contains($0) }, "\(counts)")
    }

    @Test func theDigestBindsCodeUserPurposeAndSecret() throws {
        let user = UserID()
        let digest = codes.digest(code: "12345678", userID: user, purpose: .confirm)
        #expect(digest.count == 32)
        #expect(digest == codes.digest(code: "12345678", userID: user, purpose: .confirm))
        #expect(digest != codes.digest(code: "12345679", userID: user, purpose: .confirm))
        #expect(digest != codes.digest(code: "12345678", userID: UserID(), purpose: .confirm))
        #expect(digest != codes.digest(code: "12345678", userID: user, purpose: .reset))
        let otherSecret = HMACOneTimeCodes(secret: try ServerSecret(bytes: Data(repeating: 4, count: 32)))
        #expect(digest != otherSecret.digest(code: "12345678", userID: user, purpose: .confirm))
        // Not SHA-256 of anything a database reader could enumerate.
        #expect(digest != SHA256.hash("12345678"))
    }
}
