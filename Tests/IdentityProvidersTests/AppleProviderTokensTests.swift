import AuthCore
import Foundation
import IdentityProviders
import LatchCrypto
import TestKit
import Testing

@Suite struct AppleProviderTokensTests {
    /// A P-256 key in PKCS #8 PEM, the form of the .p8 files Apple issues (made for this test, signs nothing else).
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgF3ph79FUhQNkWEBq
        fU5FmtOuI5jmTQy9VkeJl5c4n+GhRANCAASvog+MQFt+OxlHoaMwISX88yjUSEUU
        2yXVTXijQ0AmuBF2lm/UC4EIYS5G3H+1Vwosppd4gcgv3KdPflPT56qH
        -----END PRIVATE KEY-----

        """
    static let secret = try! ServerSecret(bytes: Data(repeating: 7, count: 32))

    let provider: FakeProvider
    let clock = TestClock()
    let tokens: AppleProviderTokens

    init() throws {
        provider = try FakeProvider(keys: [])
        tokens = try AppleProviderTokens(teamID: "TEAM123456", keyID: "KEY7654321", privateKeyPEM: Self.pem,
                                         secret: Self.secret, clock: clock)
    }

    @Test func theExchangePostsTheFormAndReturnsTheRefreshToken() throws {
        // Characters that would change a form's shape if they were not encoded.
        let code = "c.1&grant_type=refresh_token+x y/=%"
        let refreshToken = try tokens.exchange(code: code, clientID: "com.example.app", provider: provider.provider())
        #expect(refreshToken == "r-123")
        let form = try #require(provider.forms.value.first)
        #expect(Set(form.keys) == ["client_id", "client_secret", "code", "grant_type"])
        #expect(form["client_id"] == "com.example.app")
        #expect(form["code"] == code)
        #expect(form["grant_type"] == "authorization_code")
    }

    @Test func theClientSecretIsAnES256JWTOfTheTeamsKey() throws {
        _ = try tokens.exchange(code: "c", clientID: "com.example.app", provider: provider.provider())
        let secret = try #require(provider.forms.value.first?["client_secret"])
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64URL.decode(parts[0]))
        let header = try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any]
        #expect(header?.count == 2 && header?["alg"] as? String == "ES256" && header?["kid"] as? String == "KEY7654321")
        let claimBytes = try #require(Base64URL.decode(parts[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
        let now = Int(TokenMinter.now.timeIntervalSince1970)
        #expect(claims["iss"] as? String == "TEAM123456")
        #expect(claims["sub"] as? String == "com.example.app")
        #expect(claims["aud"] as? String == "https://appleid.apple.com")
        #expect(claims["iat"] as? Int == now)
        #expect(claims["exp"] as? Int == now + 300)
        #expect(claims.count == 5)
        let publicKey = try P256PrivateKey(pemRepresentation: Self.pem).publicKey
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(!publicKey.isValidSignature(signature, for: Data("\(parts[0]).e30".utf8)))
    }

    @Test func revocationPostsTheTokenWithItsHint() throws {
        try tokens.revoke(refreshToken: "r-123", clientID: "com.example.app", provider: provider.provider())
        let form = try #require(provider.forms.value.first)
        #expect(Set(form.keys) == ["client_id", "client_secret", "token", "token_type_hint"])
        #expect(form["token"] == "r-123" && form["token_type_hint"] == "refresh_token")
        #expect(form["client_id"] == "com.example.app")
    }

    /// The error `call` threw; nil if it threw none (or one of another type, which the check then reports).
    private func failure(_ call: () throws -> Void) -> ProviderCallError? {
        do {
            try call()
            return nil
        } catch {
            return error as? ProviderCallError
        }
    }

    @Test func answersAreSortedIntoPermanentAndTemporaryFailures() throws {
        let configured = provider.provider()
        provider.tokenAnswer.update { $0 = .init(status: .badRequest, body: #"{"error":"invalid_grant"}"#) }
        let refused = failure { _ = try tokens.exchange(code: "secret-code", clientID: "app", provider: configured) }
        guard case .permanent(let text)? = refused else {
            Issue.record("400 is permanent, not \(String(describing: refused))")
            return
        }
        #expect(text.contains("400") && text.contains("invalid_grant") && !text.contains("secret-code"))

        provider.tokenAnswer.update { $0 = .init(status: .serviceUnavailable, body: "down") }
        let unavailable = failure { try tokens.revoke(refreshToken: "secret-token", clientID: "app", provider: configured) }
        guard case .temporary(let text)? = unavailable else {
            Issue.record("503 is temporary, not \(String(describing: unavailable))")
            return
        }
        #expect(text.contains("503") && !text.contains("secret-token"))

        provider.tokenAnswer.update { $0 = .init(status: 429, body: "{}") }
        #expect(failure { try tokens.revoke(refreshToken: "t", clientID: "app", provider: configured) }
            .map { if case .temporary = $0 { true } else { false } } == true)

        provider.tokenAnswer.update { $0 = .init(status: .ok, body: #"{"access_token":"a"}"#) }
        #expect(failure { _ = try tokens.exchange(code: "c", clientID: "app", provider: configured) }
            .map { if case .permanent = $0 { true } else { false } } == true)

        provider.stop()
        #expect(failure { try tokens.revoke(refreshToken: "t", clientID: "app", provider: configured) }
            .map { if case .temporary = $0 { true } else { false } } == true)
    }

    @Test func withoutRevocationConfiguredEveryCallIsPermanent() throws {
        var configured = provider.provider()
        configured.tokenRevocation = nil
        #expect(failure { try tokens.revoke(refreshToken: "t", clientID: "app", provider: configured) }
            .map { if case .permanent = $0 { true } else { false } } == true)
        #expect(provider.forms.value.isEmpty)
    }

    @Test func aSealedTokenOpensOnlyForItsJobUnderItsSecret() throws {
        let job = ProviderJobID()
        let sealed = try tokens.seal("r-123", jobID: job)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("r-123"))
        #expect(try tokens.open(sealed, jobID: job) == "r-123")
        #expect(throws: (any Error).self) { try tokens.open(sealed, jobID: ProviderJobID()) }
        let otherSecret = try AppleProviderTokens(
            teamID: "TEAM123456", keyID: "KEY7654321", privateKeyPEM: Self.pem,
            secret: try ServerSecret(bytes: Data(repeating: 8, count: 32)), clock: clock)
        #expect(throws: (any Error).self) { try otherSecret.open(sealed, jobID: job) }
        var altered = sealed
        altered[altered.count - 1] ^= 1
        #expect(throws: (any Error).self) { try tokens.open(altered, jobID: job) }
    }

    @Test func onlyAPEMP256PrivateKeyIsTaken() {
        #expect(throws: CryptoError.self) {
            try AppleProviderTokens(teamID: "T", keyID: "K", privateKeyPEM: "not a key", secret: Self.secret,
                                    clock: clock)
        }
        let body = Self.pem.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY")
        #expect(throws: CryptoError.self) {
            try AppleProviderTokens(teamID: "T", keyID: "K", privateKeyPEM: body, secret: Self.secret, clock: clock)
        }
    }
}
