import AuthCore
import Foundation
import LatchCrypto
import Testing

/// RFC 6238 codes over OpenSSL's HMAC-SHA1, the sealing of secrets and the recovery codes.
@Suite struct TOTPSecretsTests {
    static let secrets = TOTPSecrets(secret: try! ServerSecret(bytes: Data(repeating: 7, count: 32)))

    /// RFC 6238 Appendix B, SHA-1 rows (the low 6 of the 8 digits).
    @Test(arguments: [(59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"),
                      (1_234_567_890, "005924"), (2_000_000_000, "279037"), (20_000_000_000, "353130")])
    func codesMatchRFC6238(time: Int, code: String) {
        let step = TOTPPolicy.step(at: Date(timeIntervalSince1970: TimeInterval(time)))
        #expect(Self.secrets.totpCode(secret: Data("12345678901234567890".utf8), step: step) == code)
    }

    @Test func aSealedSecretOpensOnlyInItsOwnRow() throws {
        let user = UserID(), factor = FactorID()
        let secret = Self.secrets.makeTOTPSecret()
        #expect(secret.count == 20)
        let sealed = try Self.secrets.seal(totpSecret: secret, userID: user, factorID: factor)
        #expect(sealed.count == 48)
        #expect(sealed.range(of: secret) == nil)
        #expect(try Self.secrets.openTOTPSecret(sealed, userID: user, factorID: factor) == secret)
        #expect(throws: (any Error).self) { try Self.secrets.openTOTPSecret(sealed, userID: UserID(), factorID: factor) }
        #expect(throws: (any Error).self) { try Self.secrets.openTOTPSecret(sealed, userID: user, factorID: FactorID()) }
        let other = TOTPSecrets(secret: try ServerSecret(bytes: Data(repeating: 8, count: 32)))
        #expect(throws: (any Error).self) { try other.openTOTPSecret(sealed, userID: user, factorID: factor) }
    }

    @Test func recoveryCodesAreEightyBitsOfCrockford() {
        let codes = (0..<200).map { _ in Self.secrets.makeRecoveryCode() }
        #expect(codes.allSatisfy { $0.count == 16 && RecoveryCodeText.normalized($0) == $0 })
        #expect(Set(codes).count == 200)
        let user = UserID()
        #expect(Self.secrets.digest(recoveryCode: codes[0], userID: user) == Self.secrets.digest(recoveryCode: codes[0], userID: user))
        #expect(Self.secrets.digest(recoveryCode: codes[0], userID: user) != Self.secrets.digest(recoveryCode: codes[0], userID: UserID()))
    }
}
