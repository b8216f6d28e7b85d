import AuthCore
import Foundation
import LatchCrypto

/// `IdentityProviderTokens` for Sign in with Apple: its token and revocation endpoints, authenticated by a client
/// secret that is an ES256 JWT signed with the team's key (the .p8 file Apple issues), and the tokens sealed at
/// rest with AES-256-GCM under a key derived from the server secret, the job's id as associated data.
public final class AppleProviderTokens: IdentityProviderTokens {
    /// The `aud` of every client secret.
    static let audience = "https://appleid.apple.com"
    /// A client secret's lifetime. Apple takes up to six months; one is made per call, so minutes suffice, and a
    /// secret that leaks (a proxy's log) is soon worthless.
    static let clientSecretLifetime: TimeInterval = 300

    private let teamID: String
    private let keyID: String
    private let privateKey: P256PrivateKey
    private let sealingKey: Data
    private let clock: any WallClock
    private let http: HTTPFetch

    /// - Parameters:
    ///   - teamID: the Apple developer team, the client secrets' `iss`.
    ///   - keyID: the Sign in with Apple key's id, the client secrets' `kid`.
    ///   - privateKeyPEM: that key's .p8 file (PEM of a PKCS #8 P-256 key).
    ///   - secret: the server secret; the tokens' sealing key is derived from it.
    /// - Throws: `CryptoError.invalidKey` unless `privateKeyPEM` holds a P-256 private key.
    public convenience init(teamID: String, keyID: String, privateKeyPEM: String, secret: ServerSecret,
                            clock: any WallClock) throws(CryptoError) {
        self.init(teamID: teamID, keyID: keyID, privateKey: try P256PrivateKey(pemRepresentation: privateKeyPEM),
                  secret: secret, clock: clock, http: HTTPFetch())
    }

    init(teamID: String, keyID: String, privateKey: P256PrivateKey, secret: ServerSecret, clock: any WallClock,
         http: HTTPFetch) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
        sealingKey = SecretKeyDeriver(secret: secret).key(for: .providerTokenEncryption)
        self.clock = clock
        self.http = http
    }

    public func exchange(code: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError)
        -> String
    {
        let answer = try call(provider.tokenRevocation?.tokenURL, clientID: clientID, fields: [
            ("code", code), ("grant_type", "authorization_code"),
        ])
        guard let body = JSONValue.object(from: answer.body), let token = body["refresh_token"]?.string,
              !token.isEmpty
        else { throw .permanent("the token endpoint's answer holds no refresh_token") }
        return token
    }

    public func revoke(refreshToken: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError) {
        _ = try call(provider.tokenRevocation?.revokeURL, clientID: clientID, fields: [
            ("token", refreshToken), ("token_type_hint", "refresh_token"),
        ])
    }

    public func seal(_ token: String, jobID: ProviderJobID) throws -> Data {
        let box = try AESGCM.seal(Data(token.utf8), key: sealingKey, associatedData: Self.associatedData(jobID))
        return box.nonce + box.ciphertext
    }

    public func open(_ sealed: Data, jobID: ProviderJobID) throws -> String {
        let box = AESGCM.SealedBox(ciphertext: Data(sealed.dropFirst(AESGCM.nonceByteCount)),
                                   nonce: Data(sealed.prefix(AESGCM.nonceByteCount)))
        let plaintext = try AESGCM.open(box, key: sealingKey, associatedData: Self.associatedData(jobID))
        guard let token = String(data: plaintext, encoding: .utf8) else { throw CryptoError.authenticationFailed }
        return token
    }

    private static func associatedData(_ jobID: ProviderJobID) -> Data {
        Data("provider-token:\(jobID)".utf8)
    }

    /// The client secret for `clientID`: `{"alg":"ES256","kid":…}` over `iss` the team, `iat` now, `exp` five
    /// minutes on, `aud` Apple, `sub` the client id.
    func clientSecret(clientID: String) throws(CryptoError) -> String {
        let now = Int(clock.now().timeIntervalSince1970)
        let header: [String: Any] = ["alg": "ES256", "kid": keyID]
        let claims: [String: Any] = [
            "iss": teamID, "iat": now, "exp": now + Int(Self.clientSecretLifetime), "aud": Self.audience,
            "sub": clientID,
        ]
        let input = Base64URL.encode(Self.json(header)) + "." + Base64URL.encode(Self.json(claims))
        return input + "." + Base64URL.encode(try privateKey.signature(for: Data(input.utf8)))
    }

    private static func json(_ object: [String: Any]) -> Data {
        // Strings and integers only: serialization cannot fail.
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// POSTs `client_id`, `client_secret` and `fields` to `url` and sorts the answer: 2xx is returned; no
    /// answer, a 5xx or a 429 is worth another try; any other status never succeeds. The error texts name the
    /// status and the provider's `error` code, never a code or token sent.
    private func call(_ url: URL?, clientID: String, fields: [(String, String)]) throws(ProviderCallError)
        -> HTTPFetchResponse
    {
        guard let url else { throw .permanent("the provider has no token revocation configured") }
        let secret: String
        do {
            secret = try clientSecret(clientID: clientID)
        } catch {
            throw .permanent("the client secret could not be signed: \(error.code)")
        }
        let answer: HTTPFetchResponse
        do {
            answer = try http.postForm(url, fields: [("client_id", clientID), ("client_secret", secret)] + fields)
        } catch {
            switch error {
            case .transport(let reason): throw .temporary("\(url.host ?? "the provider") did not answer: \(reason)")
            case .tooLarge: throw .temporary("\(url.host ?? "the provider") answered with too long a body")
            }
        }
        switch answer.status {
        case 200..<300:
            return answer
        case 429, 500..<600:
            throw .temporary("\(url.host ?? "the provider") answered \(answer.status)\(Self.errorCode(answer))")
        default:
            throw .permanent("\(url.host ?? "the provider") answered \(answer.status)\(Self.errorCode(answer))")
        }
    }

    /// `: <error>` from an OAuth error answer (RFC 6749 §5.2), if it has one of plain characters; else nothing.
    private static func errorCode(_ answer: HTTPFetchResponse) -> String {
        guard let code = JSONValue.object(from: answer.body)?["error"]?.string, !code.isEmpty, code.count <= 64,
              code.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || $0 == "_" })
        else { return "" }
        return ": " + code
    }
}
