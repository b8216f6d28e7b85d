import Foundation
import LatchTestSupport
import Testing

/// What a copied response, a copied authenticator or another user's credential gets: challenges are spent once and
/// serve only their purpose and user; a counter that does not grow is a suspected clone (refused, audited, mailed);
/// a credential proves only its own user.
@Suite struct PasskeyReplayTests {
    /// A sign-in challenge is spent by its first use: the same challenge with another valid assertion (a higher
    /// counter) is `invalid_passkey_challenge`, and so is the very same response sent twice.
    @Test func aSignInChallengeIsSpentOnce() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("replay-get@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, signCount: 1)
        let options = try app.signInOptions()
        let first = try SoftwareAuthenticator.get(options, with: passkey.stored, signCount: 2)
        let accepted = try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: first)
        #expect(accepted.status == 200, "\(accepted.text)")
        try PasskeyRejectionTests.expectRefused(app, "the same response again", code: "invalid_passkey_challenge") {
            try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: first)
        }
        let second = try SoftwareAuthenticator.get(options, with: passkey.stored, signCount: 3)
        try PasskeyRejectionTests.expectRefused(app, "a new assertion on a spent challenge",
                                                code: "invalid_passkey_challenge") {
            try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: second)
        }
        try PasskeyRejectionTests.expectRefused(app, "a challenge id nobody handed out",
                                                code: "invalid_passkey_challenge") {
            try app.verifyPasskeyAuthentication(challengeID: UUID().uuidString.lowercased(), credential: second)
        }
    }

    /// A registration challenge is spent by its first use: registering again on it (even a new credential) is
    /// `invalid_passkey_challenge`, and only the first passkey exists.
    @Test func aRegistrationChallengeIsSpentOnce() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("replay-create@example.test")
        let options = try app.registrationOptions(bearer: user.bearer)
        let first = try SoftwareAuthenticator.create(options)
        let accepted = try app.verifyPasskeyRegistration(bearer: user.bearer, challengeID: options.challengeID,
                                                         credential: first.credential)
        #expect(accepted.status == 201, "\(accepted.text)")
        if accepted.status == 201 { try TestApp.expectReferenceAccepts(first) }
        let second = try SoftwareAuthenticator.create(options, algorithm: -8)
        try PasskeyRejectionTests.expectRefused(app, "a second registration on a spent challenge",
                                                code: "invalid_passkey_challenge") {
            try app.verifyPasskeyRegistration(bearer: user.bearer, challengeID: options.challengeID,
                                              credential: second.credential)
        }
        #expect(try app.passkeys(bearer: user.bearer).count == 1)
    }

    /// A challenge serves only its purpose and user: a registration challenge cannot sign in, a sign-in challenge
    /// cannot register or re-authenticate, a re-authentication challenge cannot sign in, and another user's
    /// registration challenge cannot register for this one. Each is `invalid_passkey_challenge`, nothing changes.
    @Test func aChallengeServesOnlyItsPurposeAndUser() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let alice = try app.passkeyUser("alice@example.test")
        let bob = try app.passkeyUser("bob@example.test")
        let passkey = try app.registerPasskey(bearer: alice.bearer, signCount: 1)
        let session = try app.signInWithPasskey(passkey.stored, signCount: 2)

        let registration = try app.registrationOptions(bearer: alice.bearer)
        let signIn = try app.signInOptions()
        let reauthentication = try app.reauthenticationOptions(bearer: session.access_token)
        let bobsRegistration = try app.registrationOptions(bearer: bob.bearer)
        // Each assertion answers the challenge the way it is then misused, so only the purpose is wrong.
        try PasskeyRejectionTests.expectRefused(app, "registration challenge spent on a sign-in",
                                                code: "invalid_passkey_challenge") {
            let options = try registration.dressedAsSignIn(rpID: TestApp.passkeyRPID)
            let assertion = try SoftwareAuthenticator.get(options, with: passkey.stored, signCount: 3)
            return try app.verifyPasskeyAuthentication(challengeID: registration.challengeID, credential: assertion)
        }
        try PasskeyRejectionTests.expectRefused(app, "re-authentication challenge spent on a sign-in",
                                                code: "invalid_passkey_challenge") {
            let assertion = try SoftwareAuthenticator.get(reauthentication, with: passkey.stored, signCount: 4)
            return try app.verifyPasskeyAuthentication(challengeID: reauthentication.challengeID, credential: assertion)
        }
        let byReauthentication = try app.reauthenticate(
            bearer: session.access_token, challengeID: signIn.challengeID,
            credential: try SoftwareAuthenticator.get(signIn, with: passkey.stored, signCount: 5))
        PasskeyTesting.expect(byReauthentication, 400, "invalid_passkey_challenge",
                              "sign-in challenge spent on a re-authentication")
        try PasskeyRejectionTests.expectRefused(app, "sign-in challenge spent on a registration",
                                                code: "invalid_passkey_challenge") {
            let options = try signIn.dressedAsRegistration(like: registration)
            let created = try SoftwareAuthenticator.create(options)
            return try app.verifyPasskeyRegistration(bearer: alice.bearer, challengeID: signIn.challengeID,
                                                     credential: created.credential)
        }
        try PasskeyRejectionTests.expectRefused(app, "Bob's registration challenge spent by Alice",
                                                code: "invalid_passkey_challenge") {
            let created = try SoftwareAuthenticator.create(bobsRegistration)
            return try app.verifyPasskeyRegistration(bearer: alice.bearer, challengeID: bobsRegistration.challengeID,
                                                     credential: created.credential)
        }
        #expect(try app.passkeys(bearer: alice.bearer).count == 1 && app.passkeys(bearer: bob.bearer).isEmpty)
    }

    /// A counter that does not grow (WebAuthn L3 §7.2 step 21: the authenticator may be cloned) is refused with
    /// `passkey_rejected`, opens no session, and is audited as `passkey_clone_suspected` and mailed to the user;
    /// a counter below the stored one likewise.
    @Test func aCounterThatDoesNotGrowIsASuspectedClone() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("clone@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, signCount: 1)
        _ = try app.signInWithPasskey(passkey.stored, signCount: 5)
        #expect(try app.auditCount("passkey_clone_suspected") == 0)

        for (count, expectedRows) in [(UInt32(5), 1), (UInt32(3), 2)] {
            try PasskeyRejectionTests.expectRefused(app, "counter \(count) after 5", reasons: ["sign_count"]) {
                try app.passkeySignIn(passkey.stored, signCount: count)
            }
            #expect(try app.auditCount("passkey_clone_suspected", userID: user.userID) == expectedRows,
                    "counter \(count): passkey_clone_suspected rows")
        }
        #expect(try app.mailCount(to: user.email, kind: "passkey_clone_suspected") >= 1,
                "the user is told about the suspected clone")
    }

    /// Another user's credential proves nothing for this one: Bob's key presenting Alice's credential id, Alice's
    /// assertion naming Bob as its user (userHandle), and a registration of Bob's that claims Alice's credential id
    /// are all `passkey_rejected`; Alice's passkey still works afterwards.
    @Test func anotherUsersCredentialIsRefused() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let alice = try app.passkeyUser("alice@example.test")
        let bob = try app.passkeyUser("bob@example.test")
        let alices = try app.registerPasskey(bearer: alice.bearer, signCount: 1)
        let bobs = try app.registerPasskey(bearer: bob.bearer, signCount: 1)

        try PasskeyRejectionTests.expectRefused(app, "Bob's key with Alice's credential id and user handle",
                                                reasons: ["signature", "unknown_credential"]) {
            let options = try app.signInOptions()
            let assertion = try SoftwareAuthenticator.get(
                options, with: bobs.stored, signCount: 2, userHandle: .some(alices.stored.userHandle),
                credentialID: alices.stored.credentialID)
            return try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: assertion)
        }
        try PasskeyRejectionTests.expectRefused(app, "Alice's assertion with Bob's user handle",
                                                reasons: ["unknown_credential"]) {
            let options = try app.signInOptions()
            let assertion = try SoftwareAuthenticator.get(options, with: alices.stored, signCount: 2,
                                                          userHandle: .some(bobs.stored.userHandle))
            return try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: assertion)
        }
        try PasskeyRejectionTests.expectRefused(app, "Bob registering Alice's credential id") {
            let options = try app.registrationOptions(bearer: bob.bearer)
            let created = try SoftwareAuthenticator.create(options, credentialID: alices.stored.credentialID)
            return try app.verifyPasskeyRegistration(bearer: bob.bearer, challengeID: options.challengeID,
                                                     credential: created.credential)
        }
        #expect(try app.passkeys(bearer: bob.bearer).map(\.id) == [bobs.record.id])
        let session = try app.signInWithPasskey(alices.stored, signCount: 3)
        #expect(session.user.id == alice.userID, "Alice's passkey signs in Alice")
        #expect(try app.signInWithPasskey(bobs.stored, signCount: 3).user.id == bob.userID)
    }
}
