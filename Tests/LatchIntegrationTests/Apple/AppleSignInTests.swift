import Foundation
import LatchTestSupport
import Synchronization
import TestKit
import Testing

/// Sign in with Apple through the real latchd against a local Apple (`FakeAppleIssuer`: PyJWT signs, latchd checks
/// with OpenSSL): accounts made and found by `sub`, linked only by a verified address, and every forged, replayed
/// or misdirected token refused with no account made.
@Suite(.serialized) struct AppleSignInTests {
    @Test func aTokenMakesOneAccountAndTheSameSubSignsIntoIt() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let sub = "001122.\(UUID().uuidString)"
        let first = try app.signInWithApple(issuer, claims: ["sub": sub, "email": "ann@example.test"])
        #expect(first.status == 200, "\(first.text)")
        let session = try first.json(SessionJSON.self)
        #expect(session.user.email == "ann@example.test")
        let again = try app.signInWithApple(issuer, claims: ["sub": sub, "email": "relay@privaterelay.appleid.com",
                                                             "is_private_email": "true"])
        #expect(again.status == 200, "\(again.text)")
        #expect(try again.json(SessionJSON.self).user.id == session.user.id)
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 1)
        #expect(try app.count("SELECT count(*)::int8 FROM identities WHERE is_private_email") == 1)

        // The identity is listed for its user; the provider's subject is not shown.
        let listed = try app.get("/v1/me/identities", headers: [("Authorization", "Bearer \(session.access_token)")])
        #expect(listed.status == 200 && listed.text.contains("\"provider\":\"apple\"") && !listed.text.contains(sub))
        #expect(try app.auditCount("provider_sign_up") == 1 && app.auditCount("provider_sign_in_succeeded") == 2)
    }

    @Test func aVerifiedAddressLinksTheAccountAndAnUnverifiedOneDoesNot() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let owner = try app.signUpAndConfirm("bea@example.test", "correct horse battery")

        let unverified = try app.signInWithApple(issuer, claims: ["email": "bea@example.test", "email_verified": "false"])
        #expect(unverified.status == 403 && unverified.text.contains("provider_email_unverified"), "\(unverified.text)")
        #expect(try app.count("SELECT count(*)::int8 FROM identities") == 0)
        #expect(try app.outboxCount(to: "bea@example.test", kind: .identityLinked) == 0)

        let verified = try app.signInWithApple(issuer, claims: ["email": "BEA@example.test", "email_verified": true])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try verified.json(SessionJSON.self).user.id == owner.user.id)
        #expect(try app.outboxCount(to: "bea@example.test", kind: .identityLinked) == 1)
        #expect(try app.auditCount("identity_linked") == 1)
        // The password still works: a confirmed account keeps it.
        #expect(try app.signIn("bea@example.test", "correct horse battery").status == 200)
    }

    /// The pre-hijack: an attacker signs up with the victim's address and a password, and waits. When the victim
    /// signs in with Apple, the address is proven, the account is the victim's, and the attacker's password is gone.
    @Test func aPreHijackersPasswordDoesNotSurviveTheLink() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        #expect(try app.signUp("cleo@example.test", "attacker chose this").status == 202)
        let linked = try app.signInWithApple(issuer, claims: ["email": "cleo@example.test"])
        #expect(linked.status == 200, "\(linked.text)")
        let refused = try app.signIn("cleo@example.test", "attacker chose this")
        #expect(refused.status == 401, "\(refused.text)")
        #expect(try app.count("SELECT count(*)::int8 FROM users WHERE email_confirmed_at IS NOT NULL") == 1)
    }

    @Test func everyForgedOrMisdirectedTokenIsRefusedAndMakesNoAccount() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let now = Int(Date().timeIntervalSince1970)
        let cases: [(String, [String: Any], FakeAppleIssuer.Algorithm, FakeAppleIssuer.Tamper?, String)] = [
            ("another audience", ["aud": "com.example.other"], .rs256, nil, "audience"),
            ("another issuer", ["iss": "https://account.apple.com.evil"], .rs256, nil, "issuer"),
            ("expired", ["exp": now - 120, "iat": now - 720], .rs256, nil, "expired"),
            ("issued in the future", ["iat": now + 600, "exp": now + 1200], .rs256, nil, "issued_in_future"),
            ("alg none", [:], .none, nil, "algorithm"),
            ("HS256 keyed with the public key", [:], .hs256PEM, nil, "algorithm"),
            ("a tampered payload", [:], .rs256, .subject, "signature"),
        ]
        for (name, claims, alg, tamper, reason) in cases {
            let nonce = try app.appleNonce()
            var claims = claims
            claims["nonce"] = nonce.hashed
            let token = try issuer.mint(claims: claims, alg: alg, tamper: tamper)
            let audited = try app.auditCount("provider_sign_in_failed", reason: reason)
            let response = try app.signInWithApple(idToken: token, nonce: nonce)
            #expect(response.status == 401 && response.text.contains("invalid_id_token"), "\(name): \(response.text)")
            #expect(try app.auditCount("provider_sign_in_failed", reason: reason) == audited + 1, "\(name)")
        }
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 0)
        #expect(try app.count("SELECT count(*)::int8 FROM identities") == 0)
    }

    /// Latch's nonce: spent by its first use, and the token must carry its hash. GoTrue and Kratos take whatever
    /// nonce the client names, so a captured token replays.
    @Test func theNonceIsLatchsOwnAndSpentOnce() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let nonce = try app.appleNonce()
        #expect(nonce.nonce.count == 43 && nonce.expires_in == 300)
        let token = try issuer.mint(claims: ["nonce": nonce.hashed])
        #expect(try app.signInWithApple(idToken: token, nonce: nonce).status == 200)
        let replay = try app.signInWithApple(idToken: token, nonce: nonce)
        #expect(replay.status == 400 && replay.text.contains("invalid_nonce"), "\(replay.text)")

        // A new nonce does not make the old token good: its claim is the old nonce's hash.
        let fresh = try app.appleNonce()
        let stale = try app.signInWithApple(idToken: token, nonce: fresh)
        #expect(stale.status == 401 && stale.text.contains("invalid_id_token"), "\(stale.text)")

        // The raw nonce in the claim (not its hash), and no nonce claim at all.
        let raw = try app.appleNonce()
        let rawClaim = try app.signInWithApple(idToken: try issuer.mint(claims: ["nonce": raw.nonce]), nonce: raw)
        #expect(rawClaim.status == 401, "\(rawClaim.text)")
        let missing = try app.appleNonce()
        let noClaim = try app.signInWithApple(idToken: try issuer.mint(claims: ["nonce": NSNull()]), nonce: missing)
        #expect(noClaim.status == 401, "\(noClaim.text)")
        #expect(try app.auditCount("provider_sign_in_failed", reason: "nonce_claim") == 3)
        let unknown = try app.post("/v1/signin/apple", TestApp.body([
            "id_token": token, "nonce_id": UUID().uuidString, "nonce": nonce.nonce]))
        #expect(unknown.status == 400 && unknown.text.contains("invalid_nonce"), "\(unknown.text)")
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 1)
    }

    /// A token naming a kid latchd has not seen refetches the keys once; another unknown kid within the minute
    /// does not refetch again, and both are refused.
    @Test func anUnknownKidRefetchesOnceThenIsRefused() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        #expect(try app.signInWithApple(issuer).status == 200)
        let fetched = try issuer.calls().jwksFetches
        for _ in 0..<2 {
            let nonce = try app.appleNonce()
            let response = try app.signInWithApple(
                idToken: try issuer.mint(claims: ["nonce": nonce.hashed], unknownKid: true), nonce: nonce)
            #expect(response.status == 401 && response.text.contains("invalid_id_token"), "\(response.text)")
        }
        #expect(try issuer.calls().jwksFetches == fetched + 1)
        #expect(try app.auditCount("provider_sign_in_failed", reason: "unknown_key") == 2)
    }

    /// Apple unreachable: the keys latchd holds still sign in; with none held, the answer is 503.
    @Test func aCachedKeySignsInWhileAppleIsDown() throws {
        let issuer = try FakeAppleIssuer(maxAge: 60)
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        #expect(try app.signInWithApple(issuer).status == 200)
        try issuer.goDown(.dropConnection)
        #expect(try app.signInWithApple(issuer).status == 200)

        let cold = try TestApp.appleApp(issuer)
        defer { cold.stop() }
        let unavailable = try cold.signInWithApple(issuer)
        #expect(unavailable.status == 503 && unavailable.text.contains("provider_unavailable"), "\(unavailable.text)")
    }

    /// Deleting the account queues the revocation of the Apple token (exchanged from the sign-in's code) in the
    /// deleting transaction; latchd stopped before it ran, the next latchd delivers it.
    @Test func deletionRevokesTheAppleTokenAfterARestart() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let database = try TestDatabase.migrated()
        let app = try TestApp.appleApp(issuer, database: database)
        let signedIn = try app.signInWithApple(issuer, claims: ["email": "dora@example.test"], code: "c0de-1")
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(try eventually { try issuer.calls().token.count == 1 }, "the code is exchanged")
        let exchange = try #require(try issuer.calls().token.first)
        #expect(exchange.form["code"] == "c0de-1" && exchange.form["client_id"] == FakeAppleIssuer.clientID)
        #expect(exchange.clientSecretVerified, "\(exchange.clientSecretError ?? "")")
        #expect(try eventually { try app.count("SELECT count(*)::int8 FROM provider_jobs WHERE state = 'held'") == 1 },
                "the refresh token is held")

        // Apple refuses revocations for now; the account is deleted anyway, and latchd stops.
        try issuer.setRevokeStatus(503)
        let bearer = try signedIn.json(SessionJSON.self).access_token
        let proven = try app.reauthenticateByMail(bearer: bearer, email: "dora@example.test")
        let deleted = try app.send("DELETE", "/v1/me", bearer: proven.access_token)
        #expect(deleted.status == 204, "\(deleted.text)")
        // Only the daemon stops: the database stays for the next one.
        app.application.stop()
        #expect(try app.count("SELECT count(*)::int8 FROM provider_jobs WHERE state = 'revoke'") == 1)
        app.pool.close()

        try issuer.setRevokeStatus(nil)
        let restarted = try TestApp.appleApp(issuer, database: database)
        defer { restarted.stop() }
        #expect(try eventually { try issuer.calls().revoke.contains { $0.answeredStatus == 200 } },
                "the revocation reaches Apple")
        let revoke = try #require(try issuer.calls().revoke.last)
        #expect(revoke.form["token"] == "rt-c0de-1" && revoke.form["token_type_hint"] == "refresh_token")
        #expect(revoke.clientSecretVerified)
        #expect(revoke.clientSecretClaims["sub"] as? String == FakeAppleIssuer.clientID)
        #expect(revoke.clientSecretClaims["iss"] as? String == FakeAppleIssuer.teamID)
        #expect(try eventually {
            try restarted.count("SELECT count(*)::int8 FROM provider_jobs WHERE state = 'done' AND sealed_token IS NULL") == 1
        }, "the job is done and forgets the token")
    }

    /// Two first sign-ins of one Apple ID at once (a double tap): one account, one identity, both signed in.
    @Test func racingFirstSignInsMakeOneAccount() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        for round in 0..<5 {
            let sub = "race-\(round)-\(UUID().uuidString)"
            let requests = try (0..<2).map { _ in
                let nonce = try app.appleNonce()
                return (nonce, try issuer.mint(claims: ["sub": sub, "email": "race\(round)@example.test",
                                                        "nonce": nonce.hashed]))
            }
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let (nonce, token) = requests[index]
                let status = (try? app.signInWithApple(idToken: token, nonce: nonce).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            #expect(statuses.withLock { $0 } == [200, 200], "round \(round)")
        }
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 5)
        #expect(try app.count("SELECT count(*)::int8 FROM identities") == 5)
    }

    @Test func theFlowIsOffWithoutClientIDs() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.post("/v1/signin/apple/nonce", "{}").status == 404)
        #expect(try app.post("/v1/signin/apple", "{}").status == 404)
    }
}

/// Unlinking through the API: privileged, and never the account's last way in.
@Suite(.serialized) struct AppleUnlinkTests {
    /// An account Apple made has no password; with sign-in by mail off, its one identity is its only way in.
    @Test func theLastWayInCannotBeUnlinked() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer, ["LATCH_EMAIL_SIGNIN": "false"])
        defer { app.stop() }
        let signedIn = try app.signInWithApple(issuer, claims: ["email": "eve@example.test"])
        #expect(signedIn.status == 200, "\(signedIn.text)")
        let bearer = try signedIn.json(SessionJSON.self).access_token
        let listed = try app.get("/v1/me/identities", headers: [("Authorization", "Bearer \(bearer)")])
        let id = try #require(try listed.json(IdentityListJSON.self).identities.first?.id)

        let unproven = try app.send("DELETE", "/v1/me/identities/\(id)", bearer: bearer)
        #expect(unproven.status == 401 && unproven.text.contains("reauthentication_required"), "\(unproven.text)")
        let proven = try app.reauthenticateByMail(bearer: bearer, email: "eve@example.test")
        let refused = try app.send("DELETE", "/v1/me/identities/\(id)", bearer: proven.access_token)
        #expect(refused.status == 409 && refused.text.contains("last_sign_in_method"), "\(refused.text)")
        let unknown = try app.send("DELETE", "/v1/me/identities/\(UUID().uuidString)", bearer: proven.access_token)
        #expect(unknown.status == 404 && unknown.text.contains("identity_not_found"), "\(unknown.text)")
        #expect(try app.count("SELECT count(*)::int8 FROM identities") == 1)
    }

    /// With sign-in by mail on, the mailbox is a way in: unlinking is mailed, audited, and revokes the token.
    @Test func unlinkingIsMailedAndRevokesTheToken() throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let signedIn = try app.signInWithApple(issuer, claims: ["email": "fay@example.test"], code: "c0de-2")
        let bearer = try signedIn.json(SessionJSON.self).access_token
        #expect(try eventually { try app.count("SELECT count(*)::int8 FROM provider_jobs WHERE state = 'held'") == 1 })
        let listed = try app.get("/v1/me/identities", headers: [("Authorization", "Bearer \(bearer)")])
        let id = try #require(try listed.json(IdentityListJSON.self).identities.first?.id)
        let proven = try app.reauthenticateByMail(bearer: bearer, email: "fay@example.test")
        let removed = try app.send("DELETE", "/v1/me/identities/\(id)", bearer: proven.access_token)
        #expect(removed.status == 204, "\(removed.text)")
        #expect(try app.outboxCount(to: "fay@example.test", kind: .identityRemoved) == 1)
        #expect(try eventually { try issuer.calls().revoke.contains { $0.form["token"] == "rt-c0de-2" } })
    }
}

struct IdentityListJSON: Decodable {
    struct Identity: Decodable {
        let id: String
        let provider: String
    }

    let identities: [Identity]
}
