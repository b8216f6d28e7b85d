import Foundation
import LatchCrypto
import LatchTestSupport
import Testing

/// Tokens latchd did not sign, or signed for someone else, sent as bearer tokens: every one is 401
/// `invalid_token`, never a 5xx, and PyJWT (the other services' view) refuses them too.
@Suite struct ForgedTokenTests {
    /// A real token of a live session, and its parts.
    struct Genuine {
        let session: SessionJSON
        let header: [String: Any]
        let claims: [String: Any]
        var kid: String { header["kid"] as? String ?? "" }

        init(_ app: TestApp, _ email: String) throws {
            session = try app.signUpAndConfirm(email, "forgery passphrase")
            header = try AccessTokenParts.header(session.access_token)
            claims = try AccessTokenParts.claims(session.access_token)
        }
    }

    static func segment(_ object: Any) throws -> String {
        AccessTokenParts.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func expectRefused(_ app: TestApp, _ token: String, _ comment: Comment) throws {
        let response = try app.me(token)
        #expect(response.status == 401, comment)
        #expect(ErrorJSON.code(response) == "invalid_token", comment)
        #expect(response.header("WWW-Authenticate") == #"Bearer error="invalid_token""#, comment)
    }

    @Test func algNoneHS256WithThePublicKeyAndEmbeddedKeysAreRefused() throws {
        let app = try TestApp()
        defer { app.stop() }
        let genuine = try Genuine(app, "una@example.test")
        let payload = try Self.segment(genuine.claims)
        #expect(try app.me(genuine.session.access_token).status == 200, "the genuine token works")

        // alg none, with and without a signature part.
        let none = try Self.segment(["alg": "none", "typ": "at+jwt", "kid": genuine.kid]) + "." + payload
        // Algorithm confusion: HS256 keyed with the public key as published (the JWK) and as PEM.
        let jwk = try #require(try app.jwks().keys.first)
        let jwkBytes = try JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys])
        let pem = try Self.pem(jwk)
        let hs256Input = try Self.segment(["alg": "HS256", "typ": "at+jwt", "kid": genuine.kid]) + "." + payload
        let confused = [jwkBytes, Data(pem.utf8)].map { key in
            hs256Input + "." + AccessTokenParts.encode(HMACSHA256.authenticate(Data(hs256Input.utf8), key: key))
        }
        // A key of the attacker's own, offered in the header (jwk) or by URL (jku, x5u).
        let signature = genuine.session.access_token.split(separator: ".")[2]
        let embedded = try [
            ["alg": "ES256", "typ": "at+jwt", "jwk": jwk],
            ["alg": "ES256", "typ": "at+jwt", "kid": genuine.kid, "jku": "https://evil.example/jwks.json"],
            ["alg": "ES256", "typ": "at+jwt", "kid": genuine.kid, "x5u": "https://evil.example/cert.pem"],
        ].map { try Self.segment($0) + "." + payload + "." + signature }
        let forged = [none + ".", none + ".AAAA"] + confused + embedded
        for (index, token) in forged.enumerated() { try Self.expectRefused(app, token, "forgery \(index)") }
        let verdicts = try PyJWTVerifier(port: app.port).verify(forged)
        #expect(verdicts.allSatisfy { !$0.isValid }, "\(verdicts)")
    }

    @Test func aChangedClaimBreaksTheSignature() throws {
        let app = try TestApp()
        defer { app.stop() }
        let genuine = try Genuine(app, "vic@example.test")
        let other = try Genuine(app, "wes@example.test")
        let parts = genuine.session.access_token.split(separator: ".").map(String.init)
        var claims = genuine.claims
        claims["sub"] = other.claims["sub"]
        claims["sid"] = other.claims["sid"]
        claims["jti"] = other.claims["jti"]
        let impersonation = parts[0] + "." + (try Self.segment(claims)) + "." + parts[2]
        var longer = genuine.claims
        longer["exp"] = (genuine.claims["exp"] as? Int ?? 0) + 86_400
        let extended = parts[0] + "." + (try Self.segment(longer)) + "." + parts[2]
        for token in [impersonation, extended] { try Self.expectRefused(app, token, "tampered") }
        #expect(try PyJWTVerifier(port: app.port).verify(impersonation, extended).allSatisfy { !$0.isValid })
        #expect(try app.me(other.session.access_token).status == 200)
    }

    /// The same database, so the same keys and sessions: a token signed for another issuer or audience is still
    /// refused, by latchd and by PyJWT.
    @Test func aValidlySignedTokenForAnotherIssuerOrAudienceIsRefused() throws {
        let app = try TestApp()
        defer { app.stop() }
        let otherIssuer = try TestApp(environment: ["LATCH_ISSUER": "https://elsewhere.example.test"], database: app.database)
        defer { otherIssuer.stopKeepingDatabase() }
        let otherAudience = try TestApp(environment: ["LATCH_AUDIENCE": "another-api"], database: app.database)
        defer { otherAudience.stopKeepingDatabase() }

        _ = try app.signUpAndConfirm("xia@example.test", "forgery passphrase")
        for other in [otherIssuer, otherAudience] {
            let token = try other.session("xia@example.test", "forgery passphrase").access_token
            #expect(try other.me(token).status == 200, "valid where it was issued")
            #expect(try PyJWTVerifier(port: other.port, audience: other === otherAudience ? "another-api" : "latch")
                .verify(token).first?.isValid == true)
            try Self.expectRefused(app, token, "from another issuer or audience")
            #expect(try PyJWTVerifier(port: app.port).verify(token).first?.isValid == false)
        }
    }

    /// Any single character changed anywhere in a genuine token: always a 401, never a 5xx and never accepted.
    @Test func everyAlteredCharacterIsA401() throws {
        let app = try TestApp()
        defer { app.stop() }
        let token = Array(try Genuine(app, "yan@example.test").session.access_token)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/")
        var generator = SystemRandomNumberGenerator()
        let client = try app.client()
        defer { client.close() }
        for position in stride(from: 0, to: token.count, by: max(1, token.count / 150)) {
            var altered = token
            repeat { altered[position] = alphabet.randomElement(using: &generator) ?? "A" } while altered[position] == token[position]
            let response = try client.send("GET", "/v1/me", headers: [("Authorization", "Bearer \(String(altered))")])
            #expect(response.status == 401, "position \(position): \(response.status) \(response.text)")
        }
    }

    /// SubjectPublicKeyInfo PEM of a P-256 JWK: the form the classic HS256 confusion keys the HMAC with.
    static func pem(_ jwk: [String: Any]) throws -> String {
        let x = try #require(AccessTokenParts.decode(Substring(jwk["x"] as? String ?? "")))
        let y = try #require(AccessTokenParts.decode(Substring(jwk["y"] as? String ?? "")))
        let prefix: [UInt8] = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08,
                               0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04]
        let base64 = (Data(prefix) + x + y).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PUBLIC KEY-----\n\(base64)\n-----END PUBLIC KEY-----\n"
    }
}
