import Foundation
import LatchClient
import Testing

/// LatchClient+Apple.swift: the nonce and its hash for Apple's request, a sign-in that stores the session as the
/// password's does (or waits for the second factor), and the linked identities.
@Suite struct AppleSignInTests {
    /// What Apple signs for a request set up with `nonce`: a token whose `nonce` claim is `hashedNonce`.
    static func token(_ nonce: AppleSignInNonce) -> String {
        FakeLatchServer.appleIDToken(nonceClaim: nonce.hashedNonce)
    }

    @Test func theNonceIsAskedForWithoutASessionAndHashedForApple() async throws {
        let harness = Harness(signedIn: false)
        let nonce = try await harness.client.appleSignInNonce()
        let request = try #require(harness.server.allRequests.last)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://auth.example.test/v1/signin/apple/nonce")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "{}")

        let (raw, hash) = FakeLatchServer.appleNonces[0]
        #expect(nonce.nonceID == FakeLatchServer.appleNonceID(1))
        #expect(nonce.nonce == raw)
        #expect(nonce.expiresIn == 300)
        #expect(nonce.hashedNonce == hash, "lowercase hex of SHA-256 of the nonce's characters")
    }

    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ] + FakeLatchServer.appleNonces.map { ($0.nonce, $0.hash) } as [(String, String)])
    func theHashIsLowercaseHexSHA256(nonce: String, hash: String) {
        let value = AppleSignInNonce(nonceID: UUID(), nonce: nonce, expiresIn: 300)
        #expect(value.hashedNonce == hash)
        #expect(value.hashedNonce.count == 64)
    }

    @Test func theNonceIsNeverPrinted() throws {
        let (raw, hash) = FakeLatchServer.appleNonces[0]
        let nonce = AppleSignInNonce(nonceID: FakeLatchServer.appleNonceID(1), nonce: raw, expiresIn: 300)
        var dumped = ""
        dump(nonce, to: &dumped)
        for text in [String(describing: nonce), String(reflecting: nonce), dumped, "\(nonce)"] {
            #expect(!text.contains(raw), "\(text)")
        }
        #expect(dumped.contains(hash), "the hash goes to Apple anyway")
        let credential = AppleIDCredential(identityToken: "secret-token", authorizationCode: "secret-code",
                                           givenName: "Ada", familyName: "Lovelace")
        var dumpedCredential = ""
        dump(credential, to: &dumpedCredential)
        for text in [String(describing: credential), String(reflecting: credential), dumpedCredential] {
            #expect(!text.contains("secret") && !text.contains("Ada"), "\(text)")
        }
    }

    @Test func signingInStoresTheSessionAndTheDeviceToken() async throws {
        let harness = Harness(signedIn: false)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let nonce = try await harness.client.appleSignInNonce()
        let result = try await harness.client.signInWithApple(idToken: Self.token(nonce), nonce: nonce)
        let request = try #require(harness.server.requests("/v1/signin/apple").last)
        #expect(request.method == "POST")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.fields as? [String: String] == [
            "id_token": Self.token(nonce), "nonce_id": nonce.nonceID.uuidString.lowercased(), "nonce": nonce.nonce,
        ], "the nonce itself, not its hash; nothing optional as null")

        let user = try #require(result.user)
        #expect(result == .signedIn(user))
        #expect(user.email == "ada@example.com")
        #expect(await changes.next() == .signedIn(user))
        #expect(harness.store.loadSession()?.accessToken == "access-2")
        #expect(harness.store.loadDeviceToken() == "device-1")
        #expect(await harness.client.currentUser == user)
        #expect(try await harness.client.me() == user, "the stored session is the one used")
    }

    @Test func theOptionalFieldsGoWhenGiven() async throws {
        let harness = Harness(signedIn: false)
        let nonce = try await harness.client.appleSignInNonce()
        try await harness.client.signInWithApple(idToken: Self.token(nonce), nonce: nonce.nonce,
                                                 nonceID: nonce.nonceID, authorizationCode: "c0de.0.abc",
                                                 givenName: " Ada\n", familyName: "Lovelace")
        let request = try #require(harness.server.requests("/v1/signin/apple").last)
        #expect(request.fields as? [String: String] == [
            "id_token": Self.token(nonce), "nonce_id": nonce.nonceID.uuidString.lowercased(), "nonce": nonce.nonce,
            "authorization_code": "c0de.0.abc", "given_name": "Ada", "family_name": "Lovelace",
        ])
        #expect(harness.server.state.withLock { $0.identities.first?.givenName } == "Ada")
        #expect(await harness.client.currentUser != nil)
    }

    @Test func blankNamesAreLeftOut() async throws {
        let harness = Harness(signedIn: false)
        let nonce = try await harness.client.appleSignInNonce()
        let credential = AppleIDCredential(identityToken: Self.token(nonce), givenName: "", familyName: " \n")
        try await harness.client.signInWithApple(credential, nonce: nonce)
        let request = try #require(harness.server.requests("/v1/signin/apple").last)
        #expect(Set(request.fields.keys) == ["id_token", "nonce_id", "nonce"])
        #expect(await harness.client.currentUser != nil)
    }

    @Test func theCredentialsFieldsGoAsTheyCame() async throws {
        let harness = Harness(signedIn: false)
        let nonce = try await harness.client.appleSignInNonce()
        let credential = AppleIDCredential(identityToken: Self.token(nonce), authorizationCode: "c0de",
                                           givenName: "Ada", familyName: "Lovelace")
        try await harness.client.signInWithApple(credential, nonce: nonce)
        let fields = try #require(harness.server.requests("/v1/signin/apple").last?.fields as? [String: String])
        #expect(fields["id_token"] == Self.token(nonce))
        #expect(fields["authorization_code"] == "c0de")
        #expect(fields["given_name"] == "Ada" && fields["family_name"] == "Lovelace")
    }

    @Test func anAccountWithASecondFactorGetsATicketAndNothingIsStored() async throws {
        let harness = Harness(signedIn: false, deviceToken: "device-0")
        harness.server.enableSecondFactor()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let nonce = try await harness.client.appleSignInNonce()
        let result = try await harness.client.signInWithApple(idToken: Self.token(nonce), nonce: nonce)
        let ticket = MFATicket(value: "mfa-ticket-1", expiresAt: harness.clock.now + 300)
        #expect(result == .mfaRequired(ticket: ticket, methods: [.totp, .recoveryCode]))
        #expect(result.user == nil)
        #expect(await changes.next() == .secondFactorRequired(ticket: ticket, methods: [.totp, .recoveryCode]))
        #expect(harness.store.loadSession() == nil)
        #expect(harness.store.loadDeviceToken() == "device-0", "no token of any kind came")
        #expect(await harness.client.currentUser == nil)
        #expect(await harness.client.pendingMFA?.ticket == ticket)

        // The second step is the password sign-in's.
        let user = try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        #expect(harness.store.loadSession()?.user == user)
    }

    @Test func refusedSignInsStoreNothing() async throws {
        let harness = Harness(signedIn: false)
        let first = try await harness.client.appleSignInNonce()
        let second = try await harness.client.appleSignInNonce()
        await #expect(throws: LatchError.invalidIDToken, "signed for another nonce") {
            try await harness.client.signInWithApple(idToken: Self.token(second), nonce: first)
        }
        await #expect(throws: LatchError.invalidNonce, "spent by the refused try") {
            try await harness.client.signInWithApple(idToken: Self.token(first), nonce: first)
        }
        await #expect(throws: LatchError.invalidNonce, "another nonce's id") {
            try await harness.client.signInWithApple(idToken: Self.token(second), nonce: second.nonce,
                                                     nonceID: first.nonceID)
        }
        let late = try await harness.client.appleSignInNonce()
        harness.clock.advance(by: TimeInterval(late.expiresIn))
        await #expect(throws: LatchError.invalidNonce, "expired") {
            try await harness.client.signInWithApple(idToken: Self.token(late), nonce: late)
        }
        #expect(harness.store.loadSession() == nil)
        #expect(harness.store.loadDeviceToken() == nil)
        #expect(await harness.client.currentUser == nil)
    }

    @Test func aServerWithoutSignInWithAppleSaysNotFound() async {
        let harness = Harness(signedIn: false)
        harness.server.state.withLock { $0.appleOff = true }
        await #expect(throws: LatchError.rejectedRequest(code: "not_found")) {
            try await harness.client.appleSignInNonce()
        }
    }

    @Test func theProvidersRefusalsReadAsTheirCases() async throws {
        for (status, code, retryAfter, expected) in [
            (401, "invalid_id_token", nil, LatchError.invalidIDToken),
            (400, "invalid_nonce", nil, .invalidNonce),
            (403, "provider_email_unverified", nil, .providerEmailUnverified),
            (503, "provider_unavailable", 30, .providerUnavailable(retryAfter: 30)),
            (403, "user_disabled", nil, .userDisabled),
            (429, "rate_limited", 7, .rateLimited(retryAfter: 7)),
        ] as [(Int, String, Int?, LatchError)] {
            let harness = Harness(signedIn: false)
            harness.server.state.withLock {
                $0.scripted["/v1/signin/apple"] = FakeLatchServer.error(status, code, retryAfter: retryAfter)
            }
            let nonce = try await harness.client.appleSignInNonce()
            await #expect(throws: expected) {
                try await harness.client.signInWithApple(idToken: Self.token(nonce), nonce: nonce)
            }
            #expect(harness.store.loadSession() == nil)
        }
    }

    @Test func listingAndUnlinking() async throws {
        let harness = Harness()
        harness.server.linkIdentity()
        harness.server.linkIdentity(email: nil, isPrivateEmail: false)
        let identities = try await harness.client.identities()
        let list = try #require(harness.server.requests("/v1/me/identities").last)
        #expect(list.method == "GET" && list.body == nil)
        #expect(list.headers["Authorization"] == "Bearer access-1")
        let linked = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(identities == [
            LinkedIdentity(id: FakeLatchServer.identityID(1), provider: LinkedIdentity.apple,
                           email: "ada@privaterelay.appleid.com", emailVerified: true, isPrivateEmail: true,
                           createdAt: linked, lastUsedAt: linked),
            LinkedIdentity(id: FakeLatchServer.identityID(2), provider: "apple", email: nil, emailVerified: true,
                           isPrivateEmail: false, createdAt: linked, lastUsedAt: linked),
        ])

        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: nil)) {
            try await harness.client.unlinkIdentity(identities[1].id)
        }
        try await harness.client.reauthenticate(password: FakeLatchServer.password)
        try await harness.client.unlinkIdentity(identities[1].id)
        let unlink = try #require(harness.server.allRequests.last)
        #expect(unlink.method == "DELETE")
        #expect(unlink.url.path == "/v1/me/identities/" + identities[1].id.uuidString.lowercased())
        #expect(unlink.headers["Authorization"] == "Bearer access-1-reauthenticated-1")
        #expect(unlink.body == nil)
        await #expect(throws: LatchError.identityNotFound) { try await harness.client.unlinkIdentity(identities[1].id) }

        harness.server.state.withLock { $0.identityOnly = true }
        await #expect(throws: LatchError.lastSignInMethod) { try await harness.client.unlinkIdentity(identities[0].id) }
        #expect(try await harness.client.identities().map(\.id) == [identities[0].id])
        #expect(await harness.client.currentUser != nil, "no refusal here is a sign-out")
    }

    @Test func theIdentitiesNeedASession() async {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.identities() }
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.unlinkIdentity(UUID()) }
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func theAppleRefusalsEndNoSession() {
        for error in [LatchError.invalidNonce, .invalidIDToken, .providerUnavailable(retryAfter: nil),
                      .identityNotFound] {
            #expect(!error.endsSession, "\(error)")
        }
        #expect(LatchError.providerUnavailable(retryAfter: 30).retryAfter == 30)
        #expect(String(describing: LatchError.providerUnavailable(retryAfter: 30))
                == "provider_unavailable (retry after 30 s)")
    }
}
