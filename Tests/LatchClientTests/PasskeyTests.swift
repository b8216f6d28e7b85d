import Foundation
import LatchClient
import Testing

/// LatchClient+Passkeys.swift: registration behind the proof of presence, sign-in that stores the session as other
/// sign-ins do, re-authentication, and the list.
@Suite struct PasskeyTests {
    static let credentialID = Data([0xCA, 0xFE, 0xF0, 0x0D])

    /// What a platform answers to registration options: the client data for their challenge.
    static func registration(_ options: PasskeyRegistrationOptions, id: Data = credentialID) -> RegistrationResponseJSON {
        RegistrationResponseJSON(
            rawID: id,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: FakeLatchServer.clientData(type: "webauthn.create", challenge: options.publicKey.challenge),
                attestationObject: Data([0xA3, 0x63, 0x66, 0x6D, 0x74])),
            authenticatorAttachment: "platform")
    }

    /// What a platform answers to request options with the passkey `id`: the client data and signature for their
    /// challenge, and the user handle.
    static func assertion(_ options: PasskeyAuthenticationOptions, id: Data = credentialID,
                          userHandle: Data = FakeLatchServer.passkeyUserHandle) -> AuthenticationResponseJSON {
        let challenge = options.publicKey.challenge
        return AuthenticationResponseJSON(
            rawID: id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: FakeLatchServer.clientData(type: "webauthn.get", challenge: challenge),
                authenticatorData: Data(repeating: 7, count: 37), signature: FakeLatchServer.signature(for: challenge),
                userHandle: userHandle))
    }

    @Test func registeringNeedsPresenceThenAddsThePasskey() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: nil)) {
            try await harness.client.passkeyRegistrationOptions()
        }
        try await harness.client.reauthenticate(password: FakeLatchServer.password)
        let options = try await harness.client.passkeyRegistrationOptions()
        let ask = try #require(harness.server.requests("/v1/passkeys/registration/options").last)
        #expect(ask.method == "POST")
        #expect(ask.headers["Authorization"] == "Bearer access-1-reauthenticated-1")
        #expect(ask.body.map { String(decoding: $0, as: UTF8.self) } == "{}")
        #expect(options.publicKey.rp.id == FakeLatchServer.passkeyRPID)
        #expect(options.publicKey.user.id == FakeLatchServer.passkeyUserHandle)
        #expect(options.publicKey.user.name == "ada@example.com")
        #expect(options.publicKey.excludeCredentials == [])

        let passkey = try await harness.client.registerPasskey(challengeID: options.challengeID,
                                                               credential: Self.registration(options), name: "iPhone")
        let verify = try #require(harness.server.requests("/v1/passkeys/registration/verify").last)
        #expect(verify.headers["Authorization"] == "Bearer access-1-reauthenticated-1")
        let fields = verify.fields
        #expect(Set(fields.keys) == ["challenge_id", "credential", "name"])
        #expect(fields["challenge_id"] as? String == options.challengeID.uuidString.lowercased())
        let credential = try #require(fields["credential"] as? [String: Any])
        #expect(credential["id"] as? String == "yv7wDQ" && credential["rawId"] as? String == "yv7wDQ")
        #expect(credential["type"] as? String == "public-key")
        #expect((credential["response"] as? [String: Any])?["attestationObject"] as? String == "o2NmbXQ")
        #expect(passkey.name == "iPhone")
        #expect(try await harness.client.passkeys() == [passkey])

        await #expect(throws: LatchError.invalidPasskeyChallenge, "a challenge works once") {
            try await harness.client.registerPasskey(challengeID: options.challengeID,
                                                     credential: Self.registration(options))
        }
        let next = try await harness.client.passkeyRegistrationOptions()
        #expect(next.publicKey.excludeCredentials?.map(\.id) == [Self.credentialID], "the new one is excluded")
        await #expect(throws: LatchError.passkeyRejected, "signed for another challenge") {
            try await harness.client.registerPasskey(challengeID: next.challengeID, credential: Self.registration(options))
        }
    }

    @Test func theDefaultNameLeavesTheKeyOut() async throws {
        let harness = Harness()
        try await harness.client.reauthenticate(password: FakeLatchServer.password)
        let options = try await harness.client.passkeyRegistrationOptions()
        let passkey = try await harness.client.registerPasskey(challengeID: options.challengeID,
                                                               credential: Self.registration(options))
        #expect(harness.server.requests("/v1/passkeys/registration/verify").last?.fields["name"] == nil)
        #expect(passkey.name == "Passkey")
    }

    @Test func signingInStoresTheSessionAndTheDeviceToken() async throws {
        let harness = Harness(signedIn: false)
        harness.server.addPasskey(credentialID: Self.credentialID)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let options = try await harness.client.passkeyAuthenticationOptions()
        let ask = try #require(harness.server.requests("/v1/passkeys/authentication/options").last)
        #expect(ask.headers["Authorization"] == nil, "a sign-in's challenge needs no session")
        #expect(ask.body.map { String(decoding: $0, as: UTF8.self) } == "{}")
        #expect(options.publicKey.rpId == FakeLatchServer.passkeyRPID)
        #expect(options.publicKey.allowCredentials == [])
        #expect(options.publicKey.userVerification == "required")

        let user = try await harness.client.signInWithPasskey(challengeID: options.challengeID,
                                                              credential: Self.assertion(options))
        #expect(user.email == "ada@example.com")
        let verify = try #require(harness.server.requests("/v1/passkeys/authentication/verify").last)
        #expect(verify.headers["Authorization"] == nil)
        #expect(Set(verify.fields.keys) == ["challenge_id", "credential"])
        #expect(await changes.next() == .signedIn(user))
        #expect(harness.store.loadSession()?.accessToken == "access-2")
        #expect(harness.store.loadDeviceToken() == "device-1")
        #expect(try await harness.client.sessions().first?.aal == .aal2, "a passkey is both factors")
        #expect(try await harness.client.passkeys().first?.lastUsedAt == harness.clock.now)
    }

    @Test func aPasskeySignInEndsASignInWaitingForItsSecondFactor() async throws {
        let harness = Harness(signedIn: false)
        harness.server.enableSecondFactor()
        harness.server.addPasskey(credentialID: Self.credentialID)
        let first = try await harness.client.signIn(email: "ada@example.com", password: FakeLatchServer.password)
        guard case .mfaRequired = first else {
            Issue.record("expected the second step, got \(first)")
            return
        }
        #expect(await harness.client.pendingMFA != nil)
        let options = try await harness.client.passkeyAuthenticationOptions()
        try await harness.client.signInWithPasskey(challengeID: options.challengeID, credential: Self.assertion(options))
        #expect(await harness.client.pendingMFA == nil)
        #expect(await harness.client.currentUser != nil)
    }

    @Test func refusedSignInsStoreNothing() async throws {
        let harness = Harness(signedIn: false)
        harness.server.addPasskey(credentialID: Self.credentialID)
        let options = try await harness.client.passkeyAuthenticationOptions()
        await #expect(throws: LatchError.passkeyRejected, "not a passkey of this server") {
            try await harness.client.signInWithPasskey(challengeID: options.challengeID,
                                                       credential: Self.assertion(options, id: Data([9])))
        }
        await #expect(throws: LatchError.invalidPasskeyChallenge, "spent by the refused try") {
            try await harness.client.signInWithPasskey(challengeID: options.challengeID,
                                                       credential: Self.assertion(options))
        }
        let late = try await harness.client.passkeyAuthenticationOptions()
        harness.clock.advance(by: 300)
        await #expect(throws: LatchError.invalidPasskeyChallenge, "expired") {
            try await harness.client.signInWithPasskey(challengeID: late.challengeID, credential: Self.assertion(late))
        }
        #expect(harness.store.loadSession() == nil)
        #expect(await harness.client.currentUser == nil)
    }

    @Test func reauthenticatingWithAPasskeyReplacesTheAccessTokenAndSatisfiesTheSecondFactor() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        harness.server.addPasskey(credentialID: Self.credentialID)
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: "aal2")) {
            try await harness.client.passkeyRegistrationOptions()
        }
        let signInOptions = try await harness.client.passkeyAuthenticationOptions()
        await #expect(throws: LatchError.invalidPasskeyChallenge, "a sign-in's challenge does not re-authenticate") {
            try await harness.client.reauthenticate(withPasskey: Self.assertion(signInOptions),
                                                    challengeID: signInOptions.challengeID)
        }

        let options = try await harness.client.passkeyReauthenticationOptions()
        #expect(harness.server.requests("/v1/passkeys/authentication/options").last?.headers["Authorization"]
                == "Bearer access-1")
        let until = try await harness.client.reauthenticate(withPasskey: Self.assertion(options),
                                                            challengeID: options.challengeID)
        #expect(until == harness.clock.now + 600)
        let request = try #require(harness.server.requests("/v1/reauthenticate").last)
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(Set(request.fields.keys) == ["challenge_id", "credential"], "no other proof beside it")
        #expect(harness.store.loadSession()?.accessToken == "access-1-reauthenticated-1")
        #expect(harness.store.loadSession()?.refreshToken == "refresh-1")
        _ = try await harness.client.passkeyRegistrationOptions()
    }

    @Test func aWrongPasskeyLeavesTheSession() async throws {
        let harness = Harness()
        let options = try await harness.client.passkeyReauthenticationOptions()
        await #expect(throws: LatchError.passkeyRejected) {
            try await harness.client.reauthenticate(withPasskey: Self.assertion(options),
                                                    challengeID: options.challengeID)
        }
        #expect(harness.store.loadSession() == harness.server.session(1))
        #expect(await harness.client.currentUser != nil)
    }

    @Test func renamingAndRemoving() async throws {
        let harness = Harness()
        harness.server.addPasskey(credentialID: Self.credentialID)
        harness.server.addPasskey(credentialID: Data([1]), name: "YubiKey")
        let listed = try await harness.client.passkeys()
        #expect(listed.map(\.name) == ["Passkey", "YubiKey"])
        let list = try #require(harness.server.requests("/v1/passkeys").last)
        #expect(list.method == "GET" && list.body == nil)

        let renamed = try await harness.client.renamePasskey(id: listed[0].id, name: "Ada's iPhone")
        #expect(renamed.name == "Ada's iPhone")
        let rename = try #require(harness.server.allRequests.last)
        #expect(rename.method == "PATCH")
        #expect(rename.url.path == "/v1/passkeys/" + listed[0].id.uuidString.lowercased())
        #expect(rename.fields as? [String: String] == ["name": "Ada's iPhone"])
        await #expect(throws: LatchError.passkeyNotFound) {
            try await harness.client.renamePasskey(id: UUID(), name: "Gone")
        }

        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: nil)) {
            try await harness.client.deletePasskey(id: listed[1].id)
        }
        try await harness.client.reauthenticate(password: FakeLatchServer.password)
        try await harness.client.deletePasskey(id: listed[1].id)
        let delete = try #require(harness.server.allRequests.last)
        #expect(delete.method == "DELETE")
        #expect(delete.url.path == "/v1/passkeys/" + listed[1].id.uuidString.lowercased())
        #expect(delete.body == nil)
        await #expect(throws: LatchError.passkeyNotFound) { try await harness.client.deletePasskey(id: listed[1].id) }

        harness.server.state.withLock { $0.passkeyOnly = true }
        await #expect(throws: LatchError.lastSignInMethod) { try await harness.client.deletePasskey(id: listed[0].id) }
        #expect(try await harness.client.passkeys().map(\.id) == [listed[0].id])
        #expect(await harness.client.currentUser != nil, "no refusal here is a sign-out")
    }

    @Test func thePasskeysRefusalsEndNoSession() {
        for error in [LatchError.invalidPasskeyChallenge, .passkeyRejected, .passkeyNotFound, .lastSignInMethod] {
            #expect(!error.endsSession, "\(error)")
            #expect(error.retryAfter == nil)
        }
    }
}
