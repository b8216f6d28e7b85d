import AuthCore
import Foundation
import IdentityProviders
import LatchCrypto
import TestKit
import Testing

@Suite struct OpenIDTokenVerifierTests {
    let provider: FakeProvider
    let clock = TestClock()
    let verifier: OpenIDTokenVerifier

    init() throws {
        provider = try FakeProvider(keys: [try TestRSAKey.shared.jwk(kid: "key-1")])
        verifier = OpenIDTokenVerifier(clock: clock)
    }

    private func verify(_ token: String, provider configured: IdentityProvider? = nil, now: Date = TokenMinter.now)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
    {
        try verifier.verify(idToken: token, from: configured ?? provider.provider(), now: now)
    }

    private func refusal(_ token: String, provider configured: IdentityProvider? = nil,
                         now: Date = TokenMinter.now) -> IdentityTokenRejection? {
        do {
            _ = try verify(token, provider: configured, now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidTokenVerifiesAndReturnsItsClaims() throws {
        let verified = try verify(try TokenMinter.rsa())
        #expect(verified == VerifiedIdentityToken(
            issuer: TokenMinter.issuer, subject: "001234.abcdef", audience: TokenMinter.audience,
            email: "user@privaterelay.appleid.com", emailVerified: true, isPrivateEmail: true, nonce: "hashed-nonce"))
        #expect(provider.fetches.value == 1)
    }

    @Test func noneAndHMACAreRefusedEvenWhenConfigured() throws {
        var configured = provider.provider()
        configured.algorithms = ["RS256", "none", "HS256"]
        let claims = TokenMinter.part(TokenMinter.claims())
        let none = TokenMinter.part(["alg": "none", "kid": "key-1"]) + "." + claims + "."
        #expect(refusal(none, provider: configured) == .algorithm)
        // The classic confusion: an HMAC keyed with the public key's bytes, which anyone can compute.
        let input = TokenMinter.part(["alg": "HS256", "kid": "key-1"]) + "." + claims
        let mac = HMACSHA256.authenticate(Data(input.utf8), key: try TestRSAKey.shared.modulus)
        #expect(refusal(input + "." + Base64URL.encode(mac), provider: configured) == .algorithm)
        #expect(provider.fetches.value == 0)
    }

    @Test func anAlgorithmNotConfiguredOrNoKidIsRefused() throws {
        var configured = provider.provider()
        configured.algorithms = ["ES256"]
        #expect(refusal(try TokenMinter.rsa(), provider: configured) == .algorithm)
        let claims = TokenMinter.part(TokenMinter.claims())
        let noKid = TokenMinter.part(["alg": "RS256"]) + "." + claims
        #expect(refusal(noKid + "." + Base64URL.encode(try TestRSAKey.shared.sign(Data(noKid.utf8)))) == .algorithm)
        let numericKid = TokenMinter.part(["alg": "RS256", "kid": 1] as [String: Any]) + "." + claims
        #expect(refusal(numericKid + ".c2ln") == .algorithm)
    }

    @Test func anUnknownKidRefetchesOnceAMinuteThenIsRefused() throws {
        _ = try verify(try TokenMinter.rsa())
        #expect(provider.fetches.value == 1)
        let stranger = try TokenMinter.rsa(key: .other, kid: "key-2")
        #expect(refusal(stranger) == .unknownKey)
        #expect(provider.fetches.value == 2)
        #expect(refusal(stranger) == .unknownKey)
        #expect(refusal(try TokenMinter.rsa(key: .other, kid: "key-3")) == .unknownKey)
        #expect(provider.fetches.value == 2)
        // The provider rotates its keys: the next refetch, a minute on, finds the new one.
        provider.jwks.update { $0.append(try! TestRSAKey.other.jwk(kid: "key-2")) }
        clock.advance(59)
        #expect(refusal(stranger) == .unknownKey)
        clock.advance(2)
        #expect(try verify(stranger).subject == "001234.abcdef")
        #expect(provider.fetches.value == 3)
    }

    @Test func aNewKidRightAfterTheFirstFetchIsFetchedAtOnce() throws {
        _ = try verify(try TokenMinter.rsa())
        provider.jwks.update { $0.append(try! TestRSAKey.other.jwk(kid: "key-2")) }
        #expect(try verify(try TokenMinter.rsa(key: .other, kid: "key-2")).subject == "001234.abcdef")
        #expect(provider.fetches.value == 2)
    }

    @Test func issuerAndAudienceMustMatch() throws {
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["iss": "https://evil.example"]))) == .issuer)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["iss": nil]))) == .issuer)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["aud": "com.other.app"]))) == .audience)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["aud": nil]))) == .audience)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["aud": ["a", "b"]]))) == .audience)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["aud": 7]))) == .malformed)
        let array = try TokenMinter.rsa(claims: TokenMinter.claims(["aud": ["com.other.app", TokenMinter.audience]]))
        #expect(try verify(array).audience == TokenMinter.audience)
        // The matched audience is the one reported, when the provider is configured with several.
        let web = try TokenMinter.rsa(claims: TokenMinter.claims(["aud": "com.example.web"]))
        #expect(try verify(web, provider: provider.provider(audiences: [TokenMinter.audience, "com.example.web"]))
            .audience == "com.example.web")
    }

    @Test func expiryAndIssueTimeAllowTheSkewAndNoMore() throws {
        let now = Int(TokenMinter.now.timeIntervalSince1970)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": now - 61]))) == .expired)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": now - 60]))) == .expired)
        #expect(try verify(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": now - 59]))).subject != "")
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["iat": now + 61]))) == .issuedInFuture)
        #expect(try verify(try TokenMinter.rsa(claims: TokenMinter.claims(["iat": now + 60]))).subject != "")
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": nil]))) == .missingClaim)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["iat": nil]))) == .missingClaim)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": "\(now + 600)"]))) == .malformed)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["exp": true]))) == .malformed)
    }

    @Test func theSubjectMustBeANonEmptyString() throws {
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["sub": nil]))) == .missingClaim)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["sub": ""]))) == .missingClaim)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["sub": 42]))) == .malformed)
    }

    @Test func anAlteredTokenFailsTheSignature() throws {
        let token = try TokenMinter.rsa()
        let parts = token.split(separator: ".").map(String.init)
        let forged = TokenMinter.part(TokenMinter.claims(["sub": "someone.else"]))
        #expect(refusal([parts[0], forged, parts[2]].joined(separator: ".")) == .signature)
        // Signed by another key under the published kid.
        #expect(refusal(try TokenMinter.rsa(key: .other)) == .signature)
        #expect(refusal(parts[0] + "." + parts[1] + ".") == .signature)
        // The payload is read only after the signature: a signed payload that is not an object is malformed.
        let input = parts[0] + "." + Base64URL.encode(Data("[1]".utf8))
        #expect(refusal(input + "." + Base64URL.encode(try TestRSAKey.shared.sign(Data(input.utf8)))) == .malformed)
    }

    @Test func partsThatAreNotStrictBase64URLOrJSONObjectsAreMalformed() throws {
        let token = try TokenMinter.rsa()
        let parts = token.split(separator: ".").map(String.init)
        #expect(refusal(parts[0] + "." + parts[1]) == .malformed)
        #expect(refusal(token + "." + parts[2]) == .malformed)
        #expect(refusal("." + parts[1] + "." + parts[2]) == .malformed)
        #expect(refusal(parts[0] + ".." + parts[2]) == .malformed)
        #expect(refusal(parts[0] + "=." + parts[1] + "." + parts[2]) == .malformed)
        #expect(refusal(parts[0] + "." + parts[1] + "." + parts[2] + "==") == .malformed)
        #expect(refusal(parts[0] + "." + parts[1].replacingOccurrences(of: "_", with: "/") + "/." + parts[2])
            == .malformed)
        #expect(refusal(parts[0] + " ." + parts[1] + "." + parts[2]) == .malformed)
        #expect(refusal(Base64URL.encode(Data("[\"RS256\"]".utf8)) + "." + parts[1] + "." + parts[2]) == .malformed)
        #expect(refusal(Base64URL.encode(Data("not json".utf8)) + "." + parts[1] + "." + parts[2]) == .malformed)
        #expect(refusal(String(repeating: "a", count: 20_000) + "." + parts[1] + "." + parts[2]) == .malformed)
        #expect(provider.fetches.value == 0)
    }

    @Test func booleanClaimsAreReadAsBooleansOrTheirStrings() throws {
        let cases: [(Any?, Bool)] = [(true, true), (false, false), ("true", true), ("false", false), ("yes", false),
                                     (1, false), (nil, false)]
        for (value, expected) in cases {
            let token = try TokenMinter.rsa(claims: TokenMinter.claims(["email_verified": value,
                                                                        "is_private_email": value]))
            let verified = try verify(token)
            #expect(verified.emailVerified == expected, "email_verified \(String(describing: value))")
            #expect(verified.isPrivateEmail == expected, "is_private_email \(String(describing: value))")
        }
        // A provider without a private-email claim never reports one.
        var configured = provider.provider()
        configured.privateEmailClaim = nil
        #expect(try verify(try TokenMinter.rsa(), provider: configured).isPrivateEmail == false)
        let bare = try verify(try TokenMinter.rsa(claims: TokenMinter.claims(["email": nil, "nonce": nil])))
        #expect(bare.email == nil && bare.nonce == nil)
        #expect(refusal(try TokenMinter.rsa(claims: TokenMinter.claims(["nonce": 5]))) == .malformed)
    }

    @Test func aCachedSetServesWhileTheProviderIsDownEvenPastItsAge() throws {
        let token = try TokenMinter.rsa()
        #expect(refusal(token) == nil)
        provider.stop()
        #expect(refusal(token) == nil)
        clock.advance(2 * 3600)
        #expect(refusal(token) == nil)
        #expect(refusal(try TokenMinter.rsa(key: .other, kid: "key-2")) == .unknownKey)
    }

    @Test func noSetAndNoProviderIsProviderUnavailable() throws {
        let nobody = IdentityProvider.apple(audiences: [TokenMinter.audience],
                                            jwksURL: URL(string: "http://127.0.0.1:\(try freePort())/keys")!)
        #expect(refusal(try TokenMinter.rsa(), provider: nobody) == .providerUnavailable)
        provider.jwksStatus.update { $0 = .internalServerError }
        #expect(refusal(try TokenMinter.rsa()) == .providerUnavailable)
        provider.jwksStatus.update { $0 = .ok }
        #expect(try verify(try TokenMinter.rsa()).subject == "001234.abcdef")
    }

    @Test(arguments: [("max-age=120", 120.0), ("public, max-age=600, must-revalidate", 600), (nil, 3600),
                      ("max-age=5", 60), ("max-age=999999", 86_400)])
    func theSetIsKeptForItsMaxAgeWithinAMinuteAndADay(cacheControl: String?, lifetime: TimeInterval) throws {
        provider.cacheControl.update { $0 = cacheControl }
        let token = try TokenMinter.rsa()
        _ = try verify(token)
        clock.advance(lifetime - 1)
        _ = try verify(token)
        #expect(provider.fetches.value == 1)
        clock.advance(1)
        _ = try verify(token)
        #expect(provider.fetches.value == 2)
    }

    @Test func concurrentVerificationsFetchTheSetOnce() throws {
        let token = try TokenMinter.rsa()
        let configured = provider.provider()
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if (try? verifier.verify(idToken: token, from: configured, now: TokenMinter.now)) == nil {
                failures.update { $0 += 1 }
            }
        }
        #expect(failures.value == 0)
        #expect(provider.fetches.value == 1)
    }

    @Test func onlyKeysOfTheTokensTypeUseAndAlgorithmAreUsed() throws {
        let weak = try TestRSAKey(bits: 1024)
        let ec = try P256PrivateKey.generate()
        let point = try ec.x963PublicKey
        provider.jwks.update { keys in
            keys = [
                try! TestRSAKey.shared.jwk(kid: "enc", use: "enc"),
                try! TestRSAKey.shared.jwk(kid: "rs512", alg: "RS512"),
                try! weak.jwk(kid: "weak"),
                ["kty": "EC", "kid": "ec", "crv": "P-256", "x": Base64URL.encode(point.dropFirst().prefix(32)),
                 "y": Base64URL.encode(point.suffix(32))],
                try! TestRSAKey.shared.jwk(kid: "bare", alg: nil, use: nil),
            ]
        }
        #expect(refusal(try TokenMinter.rsa(kid: "enc")) == .unknownKey)
        #expect(refusal(try TokenMinter.rsa(kid: "rs512")) == .unknownKey)
        #expect(refusal(try TokenMinter.rsa(key: weak, kid: "weak")) == .unknownKey)
        #expect(refusal(try TokenMinter.rsa(kid: "ec")) == .unknownKey)
        #expect(try verify(try TokenMinter.rsa(kid: "bare")).subject == "001234.abcdef")

        var configured = provider.provider()
        configured.algorithms = ["ES256", "PS256"]
        #expect(try verify(try TokenMinter.es256(key: ec, kid: "ec"), provider: configured).subject != "")
        #expect(try verify(try TokenMinter.rsa(kid: "bare", pss: true), provider: configured).subject != "")
        #expect(refusal(try TokenMinter.es256(key: ec, kid: "bare"), provider: configured) == .unknownKey)
        // A PKCS #1 v1.5 signature under a PS256 header is not a PSS signature.
        #expect(refusal(try TokenMinter.rsa(kid: "bare", alg: "PS256"), provider: configured) == .signature)
    }
}
