import Foundation
import LatchTestSupport
import Testing

/// A passkey re-authenticates its own user's session (options with the bearer, then `POST /v1/reauthenticate`
/// with `challenge_id` and `credential`), and only that; deleting a passkey is privileged and told by mail.
@Suite struct PasskeyReauthenticationTests {
    /// A passkey sign-in is no re-authentication: deleting the passkey asks for one (401
    /// `reauthentication_required`); after the passkey re-authenticated the session, the delete is 204, audited and
    /// mailed, and the passkey signs in no more.
    @Test func deletingAPasskeyNeedsAReauthenticationWithIt() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("delete@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, signCount: 1)
        let session = try app.signInWithPasskey(passkey.stored, signCount: 2)
        PasskeyTesting.expect(try app.deletePasskey(bearer: session.access_token, id: passkey.record.id), 401,
                              "reauthentication_required", "a sign-in is no re-authentication")

        let proven = try app.reauthenticateWithPasskey(bearer: session.access_token, passkey.stored, signCount: 3)
        #expect(proven.status == 200, "\(proven.text)")
        let reauthenticated = try proven.json(ReauthenticatedJSON.self)
        let claims = try AssuranceClaims.read([reauthenticated.access_token], port: app.port)
        #expect(claims.first?.acr == "aal2", "\(claims)")

        let deleted = try app.deletePasskey(bearer: reauthenticated.access_token, id: passkey.record.id)
        #expect(deleted.status == 204, "\(deleted.status) \(deleted.text)")
        #expect(try app.passkeys(bearer: reauthenticated.access_token).isEmpty)
        #expect(try app.auditCount("passkey_removed", userID: user.userID) == 1)
        #expect(try app.mailCount(to: user.email, kind: "passkey_removed") == 1)
        PasskeyTesting.expect(try app.passkeySignIn(passkey.stored, signCount: 4), 400, "passkey_rejected",
                              "a deleted passkey")
        PasskeyTesting.expect(try app.deletePasskey(bearer: reauthenticated.access_token, id: passkey.record.id),
                              404, "passkey_not_found", "deleted twice")
    }

    /// Bob's passkey does not re-authenticate Alice's session, whether Bob's credential answers Alice's challenge as
    /// it is or claims Alice's user handle: `passkey_rejected`, and Alice's session stays unprivileged.
    @Test func anotherUsersPasskeyDoesNotReauthenticate() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let alice = try app.passkeyUser("alice@example.test")
        let bob = try app.passkeyUser("bob@example.test")
        let alices = try app.registerPasskey(bearer: alice.bearer, signCount: 1)
        let bobs = try app.registerPasskey(bearer: bob.bearer, signCount: 1)
        let session = try app.signInWithPasskey(alices.stored, signCount: 2)

        for (offset, handle) in [bobs.stored.userHandle, alices.stored.userHandle].enumerated() {
            let context = offset == 0 ? "Bob's passkey as it is" : "Bob's passkey claiming Alice's user handle"
            let options = try app.reauthenticationOptions(bearer: session.access_token)
            let assertion = try SoftwareAuthenticator.get(options, with: bobs.stored, signCount: UInt32(2 + offset),
                                                          userHandle: .some(handle))
            let response = try app.reauthenticate(bearer: session.access_token, challengeID: options.challengeID,
                                                  credential: assertion)
            PasskeyTesting.expect(response, 400, "passkey_rejected", context)
            PasskeyTesting.expectNoToken(response, context)
        }
        PasskeyTesting.expect(try app.deletePasskey(bearer: session.access_token, id: alices.record.id), 401,
                              "reauthentication_required", "after Bob's passkey was refused")
        // Alice's own passkey does.
        let proven = try app.reauthenticateWithPasskey(bearer: session.access_token, alices.stored, signCount: 3)
        #expect(proven.status == 200, "\(proven.text)")
    }

    /// Deleting the last passkey of a user who still has a password is allowed even with sign-in by mail off: the
    /// 409 `last_sign_in_method` is only for a user it would lock out (no password, no mail sign-in), which a
    /// password account cannot be.
    @Test func theLastPasskeyOfAUserWithAPasswordMayGo() throws {
        let app = try TestApp.passkeyApp(["LATCH_EMAIL_SIGNIN": "false"])
        defer { app.stop() }
        let user = try app.passkeyUser("last@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer)
        let deleted = try app.deletePasskey(bearer: user.bearer, id: passkey.record.id)
        #expect(deleted.status == 204, "\(deleted.status) \(deleted.text)")
        #expect(try app.session(user.email, PasskeyTesting.password).user.id == user.userID,
                "the password still signs in")
    }
}
