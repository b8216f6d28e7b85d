import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The flows around a provider's id_token (the fake stands in for the token checks; IdentityProvidersTests and
/// the integration tests run the real ones): Latch's nonce spent once and carried by the token, the takeover rules
/// of linking, second factors, unlinking that keeps the last way in, and the durable revocation on deletion.
@Suite struct ProviderSignInTests {
    static let apple = IdentityProvider.apple(
        audiences: ["com.example.app"],
        tokenRevocation: ProviderTokenRevocation(tokenURL: URL(string: "https://appleid.apple.com/auth/token")!,
                                                 revokeURL: URL(string: "https://appleid.apple.com/auth/revoke")!))

    static func harness(emailSignIn: Bool = true) -> Harness {
        Harness { configuration in
            configuration.identityProviders = ["apple": apple]
            configuration.emailSignIn = emailSignIn
        }
    }

    /// The claims the fake verifier answers, with the nonce claim Apple would carry for `nonce`.
    static func token(_ h: Harness, nonce: String?, subject: String = "001234.apple", email: String? = "ann@example.com",
                      verified: Bool = true, privateEmail: Bool = false) -> VerifiedIdentityToken {
        VerifiedIdentityToken(
            issuer: "https://appleid.apple.com", subject: subject, audience: "com.example.app", email: email,
            emailVerified: verified, isPrivateEmail: privateEmail,
            nonce: nonce.map { hexSHA256(h, $0) })
    }

    static func hexSHA256(_ h: Harness, _ text: String) -> String {
        h.generator.digest(bytes: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A nonce, the token the fake will answer for it, and the sign-in.
    @discardableResult
    static func signIn(_ h: Harness, subject: String = "001234.apple", email: String? = "ann@example.com",
                       verified: Bool = true, code: String? = nil, claim: ((String) -> String?)? = nil) throws
        -> SignInOutcome
    {
        let nonce = try h.service.providerSignInNonce(provider: "apple", ip: Harness.ip)
        var answer = token(h, nonce: nonce.nonce, subject: subject, email: email, verified: verified)
        if let claim { answer.nonce = claim(nonce.nonce) }
        h.providers.answer(.success(answer))
        return try h.service.signInWithProvider(
            "apple", ProviderSignInRequest(idToken: "header.payload.signature", nonceID: nonce.id, nonce: nonce.nonce,
                                           authorizationCode: code, givenName: " Ann ", familyName: "",
                                           acceptLanguage: "de-AT, en;q=0.5"),
            ip: Harness.ip, userAgent: Harness.agent)
    }

    static func audit(_ h: Harness, _ name: AuditEventName) -> [AuditEvent] {
        h.store.snapshot.audit.filter { $0.name == name }
    }

    @Test func aNewIdentityMakesAConfirmedAccountWithoutAPassword() throws {
        let h = Self.harness()
        let session = try #require(try Self.signIn(h).session)
        let user = try #require(h.user("ann@example.com"))
        #expect(user.isConfirmed && !user.hasPassword && user.locale == "de")
        #expect(session.user.id == user.id)
        let identities = try h.store.identities(userID: user.id)
        #expect(identities.map(\.subject) == ["001234.apple"])
        #expect(identities.first?.clientID == "com.example.app")
        #expect(Self.audit(h, .providerSignUp).count == 1)
        #expect(Self.audit(h, .providerSignInSucceeded).count == 1)
        let claims = try h.service.authenticate(accessToken: session.accessToken)
        #expect(claims.session.methods == [.federated] && claims.session.assurance == .aal1)

        // The same subject again is the same account, whatever address the provider says now.
        let again = try #require(try Self.signIn(h, email: "relay@privaterelay.appleid.com").session)
        #expect(again.user.id == user.id)
        #expect(h.store.snapshot.users.count == 1)
    }

    @Test func aNonceIsSpentOnceAndMustBeTheOneIssued() throws {
        let h = Self.harness()
        let nonce = try h.service.providerSignInNonce(provider: "apple", ip: Harness.ip)
        #expect(nonce.nonce.count == 43 && nonce.expiresIn == 300)
        h.providers.answer(.success(Self.token(h, nonce: nonce.nonce)))
        let request = ProviderSignInRequest(idToken: "t", nonceID: nonce.id, nonce: nonce.nonce)
        _ = try h.service.signInWithProvider("apple", request, ip: nil, userAgent: nil)
        #expect(throws: AuthError.invalidNonce) {
            try h.service.signInWithProvider("apple", request, ip: nil, userAgent: nil)
        }
        // A wrong nonce for a live id spends it: one try per nonce.
        let other = try h.service.providerSignInNonce(provider: "apple", ip: nil)
        #expect(throws: AuthError.invalidNonce) {
            try h.service.signInWithProvider(
                "apple", ProviderSignInRequest(idToken: "t", nonceID: other.id, nonce: nonce.nonce), ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.invalidNonce) {
            try h.service.signInWithProvider(
                "apple", ProviderSignInRequest(idToken: "t", nonceID: other.id, nonce: other.nonce), ip: nil, userAgent: nil)
        }
        // An expired one.
        let late = try h.service.providerSignInNonce(provider: "apple", ip: nil)
        h.clock.advance(by: 301)
        #expect(throws: AuthError.invalidNonce) {
            try h.service.signInWithProvider(
                "apple", ProviderSignInRequest(idToken: "t", nonceID: late.id, nonce: late.nonce), ip: nil, userAgent: nil)
        }
        #expect(Self.audit(h, .providerSignInFailed).allSatisfy { $0.detail["reason"] == "nonce" })
    }

    @Test func theTokenMustCarryTheHashOfThisNonce() throws {
        let h = Self.harness()
        for claim: (String) -> String? in [{ $0 }, { _ in nil }, { _ in String(repeating: "0", count: 64) }] {
            #expect(throws: AuthError.invalidIDToken) { try Self.signIn(h, claim: claim) }
        }
        #expect(h.store.snapshot.users.isEmpty)
        #expect(Self.audit(h, .providerSignInFailed).map { $0.detail["reason"] } == Array(repeating: "nonce_claim", count: 3))
    }

    @Test func aRefusedTokenMakesNothingAndSaysWhyOnlyInTheAudit() throws {
        let h = Self.harness()
        for rejection in [IdentityTokenRejection.signature, .audience, .expired] {
            let nonce = try h.service.providerSignInNonce(provider: "apple", ip: nil)
            h.providers.answer(.failure(rejection))
            #expect(throws: AuthError.invalidIDToken) {
                try h.service.signInWithProvider(
                    "apple", ProviderSignInRequest(idToken: "t", nonceID: nonce.id, nonce: nonce.nonce), ip: nil,
                    userAgent: nil)
            }
        }
        let nonce = try h.service.providerSignInNonce(provider: "apple", ip: nil)
        h.providers.answer(.failure(.providerUnavailable))
        #expect(throws: AuthError.providerUnavailable) {
            try h.service.signInWithProvider(
                "apple", ProviderSignInRequest(idToken: "t", nonceID: nonce.id, nonce: nonce.nonce), ip: nil,
                userAgent: nil)
        }
        #expect(h.store.snapshot.users.isEmpty && h.store.snapshot.identities.isEmpty)
        #expect(Self.audit(h, .providerSignInFailed).map { $0.detail["reason"] }
                == ["signature", "audience", "expired", "provider_unavailable"])
    }

    @Test func aVerifiedAddressLinksTheExistingAccountAndTellsIt() throws {
        let h = Self.harness()
        let owner = try h.confirmedUser("ann@example.com")
        let session = try #require(try Self.signIn(h).session)
        #expect(session.user.id == owner.user.id)
        #expect(h.user("ann@example.com")?.hasPassword == true)
        #expect(h.composer.requests.last?.kind == .identityLinked)
        #expect(h.composer.requests.last?.itemName == "Apple")
        #expect(Self.audit(h, .identityLinked).first?.detail["confirmed"] == "false")
    }

    /// A pre-hijack: someone signed up with the victim's address and a password of theirs. The provider's verified
    /// address proves the mailbox, so the account is confirmed for its owner and that password is gone, with every
    /// link issued under it.
    @Test func linkingAnUnconfirmedAccountDropsThePasswordChosenAtSignUp() throws {
        let h = Self.harness()
        let confirmLink = try h.signUp("ann@example.com", password: "attacker's password 1")
        let before = try #require(h.user("ann@example.com"))
        let session = try #require(try Self.signIn(h).session)
        let after = try #require(h.user("ann@example.com"))
        #expect(session.user.id == before.id)
        #expect(after.isConfirmed && !after.hasPassword && after.passwordVersion == before.passwordVersion + 1)
        #expect(Self.audit(h, .identityLinked).first?.detail["confirmed"] == "true")
        #expect(throws: AuthError.self) { try h.service.confirm(token: confirmLink, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.invalidCredentials) { try h.signIn("ann@example.com", password: "attacker's password 1") }
    }

    @Test func anUnverifiedAddressNeverLinksNorMakesAnAccount() throws {
        let h = Self.harness()
        try h.confirmedUser("ann@example.com")
        #expect(throws: AuthError.providerEmailUnverified) { try Self.signIn(h, verified: false) }
        #expect(throws: AuthError.providerEmailUnverified) {
            try Self.signIn(h, subject: "other", email: "new@example.com", verified: false)
        }
        #expect(throws: AuthError.providerEmailUnverified) { try Self.signIn(h, subject: "none", email: nil) }
        #expect(h.store.snapshot.identities.isEmpty)
        #expect(h.store.snapshot.users.count == 1)
        #expect(!h.composer.requests.contains { $0.kind == .identityLinked })
    }

    @Test func aSecondFactorIsStillAskedFor() throws {
        let h = Self.harness()
        let issued = try h.confirmedUser("ann@example.com")
        _ = try SecondFactorTests.enrol(h, session: issued)
        let outcome = try Self.signIn(h)
        let challenge = try #require(outcome.challenge)
        #expect(outcome.session == nil && !challenge.ticket.isEmpty)
        #expect(Self.audit(h, .providerSignInSucceeded).last?.detail["mfa_required"] == "true")
    }

    @Test func aDisabledAccountIsRefused() throws {
        let h = Self.harness()
        try Self.signIn(h)
        try h.store.setDisabled(userID: try #require(h.user("ann@example.com")).id, at: h.clock.now())
        #expect(throws: AuthError.userDisabled) { try Self.signIn(h) }
    }

    @Test func theLastWayInStaysAndAnotherIdentityCanGo() throws {
        let h = Self.harness(emailSignIn: false)
        let session = try #require(try Self.signIn(h).session)
        let user = try #require(h.user("ann@example.com"))
        let identity = try #require(try h.store.identities(userID: user.id).first)
        let authenticated = try h.service.authenticate(accessToken: session.accessToken)
        // A fresh sign-in is no proof of presence.
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.removeIdentity(authenticated, id: identity.id, ip: nil)
        }
        let proven = try h.service.reauthenticate(authenticated, emailCode: try mailedCode(h, authenticated), ip: nil)
        let present = try h.service.authenticate(accessToken: proven.accessToken)
        #expect(throws: AuthError.lastSignInMethod) { try h.service.removeIdentity(present, id: identity.id, ip: nil) }
        #expect(try h.store.identities(userID: user.id).count == 1)
        #expect(throws: AuthError.identityNotFound) { try h.service.removeIdentity(present, id: IdentityID(), ip: nil) }
    }

    @Test func unlinkingIsMailedAuditedAndRevokesTheToken() throws {
        let h = Self.harness()
        let owner = try h.confirmedUser("ann@example.com")
        try Self.signIn(h, code: "code-1")
        #expect(try h.service.runProviderTokenJobs() == 1)
        let identity = try #require(try h.store.identities(userID: owner.user.id).first)
        let present = try h.service.authenticate(accessToken: try h.service.reauthenticate(
            try h.service.authenticate(accessToken: owner.accessToken), password: Harness.password, ip: nil).accessToken)
        try h.service.removeIdentity(present, id: identity.id, ip: nil)
        #expect(try h.store.identities(userID: owner.user.id).isEmpty)
        #expect(h.composer.requests.last?.kind == .identityRemoved)
        #expect(Self.audit(h, .identityRemoved).count == 1)
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(h.providers.calls == .init(exchanged: ["code-1"], revoked: ["refresh-1"]))
    }

    @Test func deletionRevokesTheProviderTokenDurably() throws {
        let h = Self.harness()
        let owner = try h.confirmedUser("ann@example.com")
        try Self.signIn(h, code: "code-1")
        // Another sign-in's code is not needed while a token is held or being fetched.
        try Self.signIn(h, code: "code-2")
        h.providers.answerExchange(.failure(.temporary("503")))
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(try h.service.runProviderTokenJobs() == 0)
        h.clock.advance(by: 31)
        h.providers.answerExchange(.success("refresh-1"))
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(h.providers.calls.exchanged == ["code-1", "code-1"])

        try h.service.deleteAccount(try h.service.authenticate(accessToken: owner.accessToken), password: Harness.password,
                                    ip: nil)
        #expect(h.store.snapshot.identities.isEmpty)
        #expect(Self.audit(h, .accountDeleted).first?.detail["provider_revocations"] == "1")
        h.providers.answerRevoke(.failure(.temporary("timeout")))
        #expect(try h.service.runProviderTokenJobs() == 1)
        h.clock.advance(by: 31)
        h.providers.answerRevoke(.success(()))
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(h.providers.calls.revoked == ["refresh-1", "refresh-1"])
        #expect(Self.audit(h, .providerTokenRevocation).map { $0.detail["outcome"] } == ["revoked"])
        #expect(try h.service.runProviderTokenJobs() == 0)
    }

    @Test func anAccountDeletedBeforeTheExchangeIsRevokedOnceExchanged() throws {
        let h = Self.harness()
        let owner = try h.confirmedUser("ann@example.com")
        try Self.signIn(h, code: "code-1")
        try h.service.deleteAccount(try h.service.authenticate(accessToken: owner.accessToken), password: Harness.password,
                                    ip: nil)
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(try h.service.runProviderTokenJobs() == 1)
        #expect(h.providers.calls == .init(exchanged: ["code-1"], revoked: ["refresh-1"]))
    }

    @Test func aPermanentFailureForgetsTheToken() throws {
        let h = Self.harness()
        try Self.signIn(h, code: "code-1")
        h.providers.answerExchange(.failure(.permanent("invalid_grant")))
        #expect(try h.service.runProviderTokenJobs() == 1)
        let row = try #require(h.store.snapshot.providerJobs.values.first)
        #expect(row.state == "failed" && row.job.sealedToken.isEmpty && row.lastError == "invalid_grant")
    }

    @Test func withoutRevocationConfiguredNoCodeIsKept() throws {
        let h = Harness { $0.identityProviders = ["apple": .apple(audiences: ["com.example.app"])] }
        try Self.signIn(h, code: "code-1")
        #expect(h.store.snapshot.providerJobs.isEmpty)
    }

    /// The re-authentication code mailed to the session's user (the last code made).
    private func mailedCode(_ h: Harness, _ authenticated: AuthenticatedUser) throws -> String {
        try h.service.requestReauthenticationCode(authenticated, ip: nil)
        return try #require(h.codes.lastCode)
    }
}
