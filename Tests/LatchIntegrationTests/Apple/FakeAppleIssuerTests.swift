import Foundation
import LatchTestSupport
import Testing

/// The stand-in for Apple itself, without latchd: what it mints verifies with PyJWT against the JWKS it serves
/// and each broken token does not (so that latchd refusing one proves latchd's check, not a malformed fake), its
/// outages look like outages, and its token and revoke endpoints record calls and judge client secrets.
@Suite struct FakeAppleIssuerTests {
    @Test func itsTokensVerifyWithPyJWTAndItsBrokenOnesDoNot() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let jwks = try issuer.jwks()
        #expect(jwks.status == 200 && jwks.cacheControl == "max-age=3600")
        let key = try #require(jwks.keys.first)
        #expect(jwks.keys.count == 1)
        #expect(key["kty"] as? String == "RSA" && key["use"] as? String == "sig" && key["alg"] as? String == "RS256")
        #expect(key["e"] as? String == "AQAB" && (key["n"] as? String)?.count == 342, "2048-bit modulus: \(key)")

        let good = try issuer.mintToken(claims: ["nonce": "abc123"])
        #expect(good.kid == key["kid"] as? String && good.header["alg"] as? String == "RS256")
        let broken = [
            try issuer.mint(tamper: .subject), try issuer.mint(alg: .none), try issuer.mint(alg: .hs256PEM),
            try issuer.mint(unknownKid: true), try issuer.mint(kid: "not-served"),
            try issuer.mint(claims: ["exp": Int(Date().timeIntervalSince1970) - 3600]),
            try issuer.mint(claims: ["aud": "com.example.other"]), try issuer.mint(claims: ["sub": NSNull()]),
        ]
        let verdicts = try issuer.referenceVerdicts([good.idToken] + broken)
        #expect(verdicts.first?.isValid == true, "\(verdicts.first.map(String.init(describing:)) ?? "none")")
        #expect(verdicts.first?.claims["nonce"] as? String == "abc123")
        #expect(verdicts.first?.claims["sub"] as? String == good.sub)
        for (index, verdict) in verdicts.dropFirst().enumerated() {
            #expect(!verdict.isValid, "broken token \(index) was accepted")
        }

        // The algorithm-confusion token is the real attack: its MAC is right under the public key's PEM.
        let pem = try #require(try issuer.keys().pems[key["kid"] as? String ?? ""])
        let pemFile = issuer.directory.appendingPathComponent("public.pem")
        try Data(pem.utf8).write(to: pemFile)
        let confused = try issuer.referenceVerdicts([broken[2]], hmacKey: pemFile)
        #expect(confused.first?.isValid == true, "\(confused)")
    }

    @Test func rotationAddsAKeyThatSignsAndDroppingRetiresTheOld() throws {
        let issuer = try FakeAppleIssuer(maxAge: 60)
        defer { issuer.stop() }
        let first = try issuer.mintToken()
        let second = try issuer.rotate()
        let afterRotation = try issuer.mintToken()
        #expect(afterRotation.kid == second && first.kid != second)
        let jwks = try issuer.jwks()
        #expect(jwks.keys.count == 2 && jwks.cacheControl == "max-age=60")
        #expect(try issuer.referenceVerdicts([first.idToken, afterRotation.idToken]).allSatisfy(\.isValid))

        try issuer.rotate(dropOld: true)
        let verdicts = try issuer.referenceVerdicts([first.idToken, try issuer.mint(kid: first.kid)])
        #expect(verdicts.allSatisfy { !$0.isValid }, "\(verdicts)")
    }

    @Test func goingDownFailsTheJWKSUntilItComesUp() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        try issuer.goDown()
        #expect(try issuer.jwks().status == 503)
        try issuer.goDown(.dropConnection)
        #expect(throws: HTTPTestClient.Failure.connectionClosed) { try issuer.jwks() }
        try issuer.comeUp()
        #expect(try issuer.jwks().status == 200)
        #expect(try issuer.calls().jwksFetches == 3, "answered or not, each request counts")
    }

    @Test func theTokenAndRevokeEndpointsRecordCallsAndJudgeTheClientSecret() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let p8 = issuer.directory.appendingPathComponent("AuthKey.p8")
        let publicKey = try issuer.makeP8(at: p8)
        #expect(publicKey.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try String(contentsOf: p8, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(issuer.environment(privateKeyFile: p8)["LATCH_APPLE_JWKS_URL"] == issuer.jwksURL)
        let secret = try FakeAppleIssuer.clientSecret(p8: p8)

        let exchange = try Self.post(issuer, "/auth/token", [
            "client_id": FakeAppleIssuer.clientID, "client_secret": secret, "code": "c-1",
            "grant_type": "authorization_code",
        ])
        #expect(exchange.status == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(exchange.body)) as? [String: Any])
        #expect(answer["refresh_token"] as? String == "rt-c-1" && answer["token_type"] as? String == "Bearer")
        let idToken = try #require(answer["id_token"] as? String)
        #expect(try issuer.referenceVerdicts([idToken]).first?.isValid == true)

        try issuer.setTokenStatus(400, times: 1)
        let refused = try Self.post(issuer, "/auth/token", ["client_id": "x", "client_secret": "not-a-jwt", "code": "c-2"])
        #expect(refused.status == 400 && refused.text.contains("invalid_grant"))
        try issuer.setRevokeStatus(503)
        #expect(try Self.post(issuer, "/auth/revoke", ["token": "rt-c-1"]).status == 503)
        try issuer.setRevokeStatus(nil)
        let revoked = try Self.post(issuer, "/auth/revoke", [
            "client_id": FakeAppleIssuer.clientID, "client_secret": secret, "token": "rt-c-1",
            "token_type_hint": "refresh_token",
        ])
        #expect(revoked.status == 200 && revoked.body.isEmpty)

        let calls = try issuer.calls()
        #expect(calls.token.count == 2 && calls.revoke.count == 2)
        #expect(calls.token[0].clientSecretVerified, "\(calls.token[0])")
        #expect(calls.token[0].form["code"] == "c-1" && calls.token[0].answeredStatus == 200)
        #expect(calls.token[0].clientSecretHeader["kid"] as? String == FakeAppleIssuer.keyID)
        #expect(calls.token[0].clientSecretClaims["iss"] as? String == FakeAppleIssuer.teamID)
        #expect(!calls.token[1].clientSecretVerified && calls.token[1].answeredStatus == 400)
        #expect(calls.revoke[0].answeredStatus == 503 && !calls.revoke[0].clientSecretVerified)
        #expect(calls.revoke[1].clientSecretVerified && calls.revoke[1].form["token_type_hint"] == "refresh_token")
    }

    /// A form-encoded POST, as latchd sends to Apple.
    static func post(_ issuer: FakeAppleIssuer, _ path: String, _ form: [String: String]) throws
        -> HTTPTestClient.Response
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        let client = try HTTPTestClient(port: issuer.port)
        defer { client.close() }
        return try client.send(
            "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }
}
