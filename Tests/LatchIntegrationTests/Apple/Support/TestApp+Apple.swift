import Foundation
import LatchCrypto
import LatchTestSupport
import PostgresClient

/// latchd with Sign in with Apple pointed at a `FakeAppleIssuer`, and the requests an app makes.
extension TestApp {
    /// A nonce as `POST /v1/signin/apple/nonce` answers it.
    struct AppleNonce: Decodable {
        let nonce_id: String
        let nonce: String
        let expires_in: Int

        /// What the app passes to `ASAuthorizationAppleIDRequest.nonce`, and Apple puts in the token.
        var hashed: String { SHA256.hash(Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined() }
    }

    /// latchd configured for `issuer`, revocation included (a fresh .p8 in the issuer's directory). Outbox
    /// workers stay off, so notices can be read from their rows.
    static func appleApp(_ issuer: FakeAppleIssuer, database: TestDatabase? = nil,
                         _ environment: [String: String] = [:]) throws -> TestApp {
        let p8 = issuer.directory.appendingPathComponent("AuthKey.p8")
        if !FileManager.default.fileExists(atPath: p8.path) { try issuer.makeP8(at: p8) }
        var variables = issuer.environment(privateKeyFile: p8)
        variables["LATCH_RATE_SIGNIN_IP"] = "1000/1m"
        variables.merge(environment) { $1 }
        return try TestApp(environment: variables, database: database)
    }

    func appleNonce() throws -> AppleNonce {
        let response = try post("/v1/signin/apple/nonce", "{}")
        guard response.status == 200 else { throw FlowError.unexpected(response.status, response.text) }
        return try response.json(AppleNonce.self)
    }

    func signInWithApple(idToken: String, nonce: AppleNonce, code: String? = nil, givenName: String? = nil)
        throws -> HTTPTestClient.Response
    {
        var fields = ["id_token": idToken, "nonce_id": nonce.nonce_id, "nonce": nonce.nonce]
        fields["authorization_code"] = code
        fields["given_name"] = givenName
        return try post("/v1/signin/apple", Self.body(fields))
    }

    /// A fresh nonce, a token for it from `issuer` with `claims`, and the sign-in.
    func signInWithApple(_ issuer: FakeAppleIssuer, claims: [String: Any] = [:], code: String? = nil)
        throws -> HTTPTestClient.Response
    {
        let nonce = try appleNonce()
        var claims = claims
        if claims["nonce"] == nil { claims["nonce"] = nonce.hashed }
        return try signInWithApple(idToken: try issuer.mint(claims: claims), nonce: nonce, code: code)
    }

    /// Audit rows of `event` whose reason is `reason` (`auditCount(_:userID:)` counts them all).
    func auditCount(_ event: String, reason: String) throws -> Int {
        try count("SELECT count(*)::int8 FROM audit_log WHERE event = $1 AND detail->>'reason' = $2", [event, reason])
    }
}
