import AuthCore
import Foundation
import Testing

/// The pure rules of second factors: base32 as authenticator apps read it, recovery codes as people type them,
/// RFC 6238's steps and window, the otpauth URI.
@Suite struct SecondFactorPolicyTests {
    /// RFC 4648 §10's test vectors, unpadded.
    @Test(arguments: [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"),
                      ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")])
    func base32MatchesRFC4648(plain: String, encoded: String) {
        #expect(Base32.encode(Data(plain.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Data(plain.utf8))
        #expect(Base32.decode(encoded.lowercased()) == Data(plain.utf8))
    }

    @Test func base32RefusesOtherCharacters() {
        #expect(Base32.decode("MZXW1") == nil)
        #expect(Base32.decode("MZ XW") == nil)
    }

    @Test func recoveryCodesForgiveWhatCrockfordForgives() {
        #expect(RecoveryCodeText.normalized("ABCD-EFGH-JKMN-PQRS") == "ABCDEFGHJKMNPQRS")
        #expect(RecoveryCodeText.normalized("abcd efgh jkmn pqrs") == "ABCDEFGHJKMNPQRS")
        #expect(RecoveryCodeText.normalized("O0IL-1111-2222-3333") == "0011111122223333")
        #expect(RecoveryCodeText.normalized("ABCD-EFGH-JKMN-PQR") == nil)
        #expect(RecoveryCodeText.normalized("ABCD-EFGH-JKMN-PQRST") == nil)
        #expect(RecoveryCodeText.normalized("ABCD-EFGH-JKMN-PQRU") == nil)
        #expect(RecoveryCodeText.format("ABCDEFGHJKMNPQRS") == "ABCD-EFGH-JKMN-PQRS")
    }

    @Test func stepsAreThirtySecondsFromTheEpoch() {
        #expect(TOTPPolicy.step(at: Date(timeIntervalSince1970: 59)) == 1)
        #expect(TOTPPolicy.step(at: Date(timeIntervalSince1970: 60)) == 2)
        #expect(TOTPPolicy.candidateSteps(at: Date(timeIntervalSince1970: 1_111_111_109)) == [37_037_037, 37_037_036,
                                                                                              37_037_035])
    }

    @Test func codesAreSixDigits() {
        #expect(TOTPPolicy.normalized("123456") == "123456")
        #expect(TOTPPolicy.normalized("123 456") == "123456")
        #expect(TOTPPolicy.normalized("12345") == nil)
        #expect(TOTPPolicy.normalized("1234567") == nil)
        #expect(TOTPPolicy.normalized("12345a") == nil)
        #expect(TOTPPolicy.normalized("١٢٣٤٥٦") == nil)
    }

    @Test func theURIEscapesIssuerAndAccount() {
        let uri = TOTPPolicy.otpauthURI(issuer: "Acme Co", account: "a+b@example.com", secret: Data("foobar".utf8))
        #expect(uri == "otpauth://totp/Acme%20Co:a%2Bb%40example.com?secret=MZXW6YTBOI&issuer=Acme%20Co"
            + "&algorithm=SHA1&digits=6&period=30")
    }
}
