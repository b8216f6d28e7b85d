import AuthCore
import AuthCoreTesting
import Foundation
@testable import LatchCrypto
import Testing

/// JWS/ES256AccessTokens.swift: what it signs, what it refuses, and how long it trusts the keys it read.
@Suite struct ES256AccessTokensTests {
    struct Fixture {
        let clock = ManualClock()
        let store = InMemorySigningKeyStore()
        let sealer = SigningKeySealer(secret: SigningKeySealerTests.secret)
        let keys: SigningKeys
        let tokens: ES256AccessTokens

        init() {
            keys = SigningKeys(store: store, factory: ES256KeyFactory(sealer: sealer), clock: clock,
                               schedule: SigningKeySchedule(jwksMaxAge: 600, accessTokenTTL: 900))
            tokens = ES256AccessTokens(keys: keys, sealer: sealer)
        }

        func claims(email: String = "ada@example.com") -> AccessTokenClaims {
            AccessTokenClaims(
                issuer: "https://auth.example.com", audience: "latch", subject: UserID(), sessionID: SessionID(),
                issuedAt: clock.now(), expiresAt: clock.now().addingTimeInterval(900), tokenID: "jti-1",
                email: email, emailVerified: true)
        }

        /// The private key of `kid`, opened as latchd opens it.
        func privateKey(_ kid: String) throws -> P256PrivateKey {
            let key = try #require(store.keys.first { $0.kid == kid })
            return try sealer.open(key.sealedPrivateKey, kid: kid)
        }

        var currentKid: String {
            get throws { try keys.ring(actor: "test").current.kid }
        }
    }

    /// A compact JWS of any header and payload, signed by `key` (or with `signature` as given).
    static func forge(header: String, payload: Data, key: P256PrivateKey?, signature: Data = Data([1])) throws -> String {
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payload)
        let bytes = try key.map { try $0.signature(for: Data(input.utf8)) } ?? signature
        return input + "." + Base64URL.encode(bytes)
    }

    static func parts(_ token: String) -> [String] { token.split(separator: ".").map(String.init) }

    @Test func signsWithTheCurrentKeyTheOneHeaderAndTheClaimsAndVerifiesItsOwnTokens() throws {
        let fixture = Fixture()
        let claims = fixture.claims()
        let token = try fixture.tokens.sign(claims)
        let parts = Self.parts(token)
        #expect(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]))
        #expect(String(decoding: header, as: UTF8.self)
            == #"{"alg":"ES256","kid":"\#(try fixture.currentKid)","typ":"at+jwt"}"#)
        let payloadData = try #require(Base64URL.decode(parts[1]))
        let payload = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        #expect(Set(payload.keys) == ["iss", "aud", "sub", "sid", "iat", "exp", "jti", "email", "email_verified"])
        #expect(payload["iat"] as? Int == Int(claims.issuedAt.timeIntervalSince1970))
        #expect(payload["sub"] as? String == claims.subject.description)
        #expect(try fixture.tokens.verify(token) == claims)
        #expect(try fixture.tokens.publishedKeys().map(\.kid) == [try fixture.currentKid])
    }

    @Test func refusesAnythingThatIsNotThreeBase64URLParts() throws {
        let fixture = Fixture()
        let token = try fixture.tokens.sign(fixture.claims())
        let parts = Self.parts(token)
        for bad in ["", "abc", "a.b", "a.b.c.d", parts[0] + "." + parts[1] + ".", parts[0] + ".." + parts[2],
                    "." + parts[1] + "." + parts[2], token + String(repeating: "A", count: 4096)] {
            #expect(throws: AccessTokenRejection.malformed, "\(bad.prefix(40))") { try fixture.tokens.verify(bad) }
        }
        // A character outside base64url in any part: refused, whichever check meets it first.
        for bad in ["+" + parts[0].dropFirst() + "." + parts[1] + "." + parts[2],
                    parts[0] + ".+" + parts[1].dropFirst() + "." + parts[2],
                    parts[0] + "." + parts[1] + ".+" + parts[2].dropFirst(), token + "="] {
            #expect(throws: AccessTokenRejection.self, "\(bad.prefix(40))") { try fixture.tokens.verify(bad) }
        }
    }

    @Test func aChangedClaimOrSignatureIsABadSignature() throws {
        let fixture = Fixture()
        let token = try fixture.tokens.sign(fixture.claims())
        // The genuine token was checked (and its answer kept) first: no altered spelling may borrow it.
        _ = try fixture.tokens.verify(token)
        let parts = Self.parts(token)
        var claims = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1]))) as? [String: Any]
        claims?["email"] = "mallory@example.com"
        let tampered = parts[0] + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims ?? [:]))
            + "." + parts[2]
        #expect(throws: AccessTokenRejection.badSignature) { try fixture.tokens.verify(tampered) }

        // Latch's exact header and kid, another key's signature.
        let header = String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self)
        let payload = try #require(Base64URL.decode(parts[1]))
        let forged = try Self.forge(header: header, payload: payload, key: try P256PrivateKey.generate())
        #expect(throws: AccessTokenRejection.badSignature) { try fixture.tokens.verify(forged) }

        // The same signature bytes spelled differently: 64 bytes leave 4 unused bits in the last character
        // (always one of A, Q, g, w), and setting one gives a second spelling that some decoders accept.
        let signature = parts[2]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(signature.last.flatMap { alphabet.firstIndex(of: $0) })
        #expect(last % 16 == 0)
        let respelled = parts[0] + "." + parts[1] + "." + signature.dropLast() + String(alphabet[last + 1])
        #expect(throws: AccessTokenRejection.badSignature) { try fixture.tokens.verify(respelled) }
        // A signature of the wrong length.
        let short = parts[0] + "." + parts[1] + "." + Base64URL.encode(try #require(Base64URL.decode(signature)).prefix(63))
        #expect(throws: AccessTokenRejection.badSignature) { try fixture.tokens.verify(short) }
    }

    /// The high-S twin of a token's signature, (r, n − s), is as valid an ECDSA signature as the token's own:
    /// accepted, it would be a second text for one token, which the cache of checked texts, or a deny-list kept
    /// by text, would take for another token. Refused whether or not the genuine text was checked first.
    @Test func theHighSTwinOfAGenuineTokenIsABadSignature() throws {
        let fixture = Fixture()
        let token = try fixture.tokens.sign(fixture.claims())
        let parts = Self.parts(token)
        let signature = try #require(Base64URL.decode(parts[2]))
        let twin = parts[0] + "." + parts[1] + "." + Base64URL.encode(ECDSAReference.twin(of: signature))
        let publicKey = try fixture.privateKey(try fixture.currentKid).publicKey
        #expect(ECDSAReference.openSSLVerifies(ECDSAReference.twin(of: signature),
                                               for: Data((parts[0] + "." + parts[1]).utf8), with: publicKey))

        #expect(throws: AccessTokenRejection.badSignature) { try fixture.tokens.verify(twin) }
        #expect(try fixture.tokens.verify(token).tokenID == "jti-1")
        #expect(throws: AccessTokenRejection.badSignature, "not borrowed from the kept answer") {
            try fixture.tokens.verify(twin)
        }
        #expect(try fixture.tokens.verify(token).tokenID == "jti-1")
    }

    @Test func onlyES256WithLatchsHeaderAndAPublishedKidIsAccepted() throws {
        let fixture = Fixture()
        let kid = try fixture.currentKid
        let payload = try JSONEncoder().encode(fixture.claims())
        let attacker = try P256PrivateKey.generate()
        let point = try attacker.x963PublicKey
        let jwk = #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(point.dropFirst().prefix(32)))","y":"\#(Base64URL.encode(point.suffix(32)))"}"#

        func refused(_ header: String, key: P256PrivateKey? = nil, signature: Data = Data([1])) throws -> AccessTokenRejection? {
            let token = try Self.forge(header: header, payload: payload, key: key, signature: signature)
            do {
                _ = try fixture.tokens.verify(token)
                return nil
            } catch let rejection as AccessTokenRejection {
                return rejection
            }
        }
        #expect(try refused(#"{"alg":"none","kid":"\#(kid)","typ":"at+jwt"}"#) == .algorithmNotAllowed)
        #expect(try refused(#"{"alg":"None","typ":"at+jwt"}"#) == .algorithmNotAllowed)
        // Algorithm confusion: an HMAC keyed with the published public key.
        let publicJWK = try JSONEncoder().encode(try #require(fixture.tokens.publishedKeys().first))
        let input = Base64URL.encode(Data(#"{"alg":"HS256","kid":"\#(kid)","typ":"at+jwt"}"#.utf8)) + "."
            + Base64URL.encode(payload)
        let hs256 = input + "." + Base64URL.encode(HMACSHA256.authenticate(Data(input.utf8), key: publicJWK))
        #expect(throws: AccessTokenRejection.algorithmNotAllowed) { try fixture.tokens.verify(hs256) }
        #expect(try refused(#"{"alg":"ES384","kid":"\#(kid)","typ":"at+jwt"}"#, key: attacker) == .algorithmNotAllowed)
        // Keys offered by the token itself are never used.
        #expect(try refused(#"{"alg":"ES256","jwk":\#(jwk),"typ":"at+jwt"}"#, key: attacker) == .unexpectedHeader)
        #expect(try refused(#"{"alg":"ES256","kid":"\#(kid)","jku":"https://evil.example/jwks","typ":"at+jwt"}"#,
                            key: attacker) == .unexpectedHeader)
        #expect(try refused(#"{"alg":"ES256","kid":"\#(kid)","x5u":"https://evil.example/c","typ":"at+jwt"}"#,
                            key: attacker) == .unexpectedHeader)
        #expect(try refused(#"{"alg":"ES256","kid":"\#(kid)","typ":"JWT"}"#, key: attacker) == .wrongType)
        #expect(try refused(#"{"alg":"ES256","kid":"attacker","typ":"at+jwt"}"#, key: attacker) == .unknownKey)
        #expect(try refused(#"{"alg":"ES256","typ":"at+jwt"}"#, key: attacker) == .unknownKey)
        #expect(try refused(#"["alg","ES256"]"#, key: attacker) == .malformed)
    }

    @Test func aValidSignatureOverClaimsOfAnotherShapeIsMalformed() throws {
        let fixture = Fixture()
        let kid = try fixture.currentKid
        let header = #"{"alg":"ES256","kid":"\#(kid)","typ":"at+jwt"}"#
        let key = try fixture.privateKey(kid)
        for payload in [#"{"sub":"x"}"#, #"{"iss":"i","aud":["latch"],"sub":"not-a-uuid"}"#, "not json"] {
            let token = try Self.forge(header: header, payload: Data(payload.utf8), key: key)
            #expect(throws: AccessTokenRejection.malformed) { try fixture.tokens.verify(token) }
        }
    }

    @Test func theKeysAreReadAtMostOncePerCacheInterval() throws {
        let fixture = Fixture()
        let token = try fixture.tokens.sign(fixture.claims())
        let reads = fixture.store.reads
        for _ in 0..<50 { _ = try fixture.tokens.verify(token) }
        _ = try fixture.tokens.sign(fixture.claims())
        #expect(fixture.store.reads == reads, "no read while the keys are fresh")
        fixture.clock.advance(by: SigningKeySchedule.cacheInterval)
        _ = try fixture.tokens.verify(token)
        #expect(fixture.store.reads == reads + 1)
    }

    @Test func aCheckedSignatureIsKeptOnlyForTheExactTextAndABoundedNumberOfTokens() throws {
        var kept = VerifiedTokens(capacity: 2)
        let fixture = Fixture()
        let now = fixture.clock.now()
        let live = fixture.claims()
        var expired = fixture.claims()
        expired.expiresAt = now.addingTimeInterval(-1)
        kept.insert(.init(kid: "k", claims: expired), for: "a", now: now)
        kept.insert(.init(kid: "k", claims: live), for: "b", now: now)
        kept.insert(.init(kid: "k", claims: live), for: "c", now: now)
        #expect(kept.count == 2 && kept.entry(for: "a") == nil, "the expired entry made room")
        kept.insert(.init(kid: "k", claims: live), for: "d", now: now)
        #expect(kept.count == 1 && kept.entry(for: "d")?.claims == live, "nothing expired: all went")
        #expect(kept.entry(for: "D") == nil)
    }

    @Test func aRevokedKeyStopsVerifyingWithinTheCacheIntervalAndANewKeySigns() throws {
        let fixture = Fixture()
        let token = try fixture.tokens.sign(fixture.claims())
        let old = try fixture.currentKid
        let (_, replacement) = try fixture.keys.revoke(kid: old, actor: "test")
        #expect(try fixture.tokens.verify(token).tokenID == "jti-1", "within the interval the read keys still hold")
        fixture.clock.advance(by: SigningKeySchedule.cacheInterval)
        #expect(throws: AccessTokenRejection.unknownKey) { try fixture.tokens.verify(token) }
        let next = try fixture.tokens.sign(fixture.claims())
        let header = try #require(Base64URL.decode(Self.parts(next)[0]))
        #expect(String(decoding: header, as: UTF8.self).contains(try #require(replacement?.kid)))
        #expect(try fixture.tokens.publishedKeys().map(\.kid) == [replacement?.kid])
    }

    @Test func aRotatedKeyIsPublishedFirstSignsLaterAndTheOldOneVerifiesUntilItsTokensExpired() throws {
        let fixture = Fixture()
        let schedule = fixture.keys.schedule
        let old = try fixture.tokens.sign(fixture.claims())
        let oldKid = try fixture.currentKid
        let next = try fixture.keys.rotate(actor: "test")
        fixture.clock.advance(by: SigningKeySchedule.cacheInterval)
        #expect(Set(try fixture.tokens.publishedKeys().map(\.kid)) == [oldKid, next.kid])
        #expect(Self.parts(try fixture.tokens.sign(fixture.claims()))[0] == Self.parts(old)[0], "not yet")

        fixture.clock.advance(by: schedule.activationDelay)
        let new = try fixture.tokens.sign(fixture.claims())
        #expect(String(decoding: try #require(Base64URL.decode(Self.parts(new)[0])), as: UTF8.self).contains(next.kid))
        #expect(try fixture.tokens.verify(old).tokenID == "jti-1", "the previous key still verifies")

        fixture.clock.advance(by: schedule.retention)
        #expect(throws: AccessTokenRejection.unknownKey) { try fixture.tokens.verify(old) }
        #expect(try fixture.tokens.verify(new).tokenID == "jti-1")
        #expect(try fixture.tokens.publishedKeys().map(\.kid) == [next.kid])
    }

    @Test func keysSealedUnderAnotherSecretDoNotOpen() throws {
        let fixture = Fixture()
        _ = try fixture.tokens.sign(fixture.claims())  // makes the first key
        let wrong = SigningKeySealer(secret: try ServerSecret(bytes: Data(repeating: 9, count: 32)))
        let other = ES256AccessTokens(keys: fixture.keys, sealer: wrong)
        #expect(throws: CryptoError.authenticationFailed) { try other.sign(fixture.claims()) }
    }
}
