import Foundation
import LatchTestSupport
import Testing

/// A passkey is a multi-factor authenticator on its own (possession of the key, user verification): its sessions
/// are aal2 with `amr` naming the key's kind (RFC 8176 `hwk` for a device-bound key, `swk` for a synced one,
/// then `user` and `mfa`), read by PyJWT from latchd's JWKS (`AssuranceClaims`); and a TOTP user signing in with
/// one is not asked for the code.
@Suite struct PasskeyAssuranceTests {
    @Test func tokenClaimsNameTheKindOfKey() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("claims@example.test")
        let deviceBound = try app.registerPasskey(bearer: user.bearer, algorithm: -7, signCount: 1)
        let synced = try app.registerPasskey(bearer: user.bearer, algorithm: -8, flags: .synced)
        let hardware = try app.signInWithPasskey(deviceBound.stored, signCount: 2)
        let software = try app.signInWithPasskey(synced.stored, signCount: 1)
        let refreshed = try app.signedIn(try app.refresh(software.refresh_token))

        let cases: [(String, String, [String])] = [
            ("device-bound passkey", hardware.access_token, ["hwk", "user", "mfa"]),
            ("synced passkey", software.access_token, ["swk", "user", "mfa"]),
            ("refresh of the synced passkey's session", refreshed.access_token, ["swk", "user", "mfa"]),
        ]
        let claims = try AssuranceClaims.read(cases.map(\.1), port: app.port)
        for ((name, _, amr), read) in zip(cases, claims) {
            #expect(read.isValid, "\(name): \(read)")
            #expect(read.acr == "aal2" && read.acrType == "str", "\(name): \(read)")
            #expect(read.amr == amr && read.amrType == "list[str]", "\(name): expected amr \(amr), \(read)")
            #expect(read.authTimeType == "int", "\(name): \(read)")
        }
    }

    /// A user with TOTP registers a passkey (privileged: re-authenticated with a second factor, here a recovery
    /// code) and then signs in with it alone: a session at once, no `mfa_required` and no ticket, aal2.
    @Test func aTOTPUserSignsInWithAPasskeyInOneStep() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.enrolledUser("totp@example.test")
        let session = try app.signInWithRecoveryCode(user, 0)
        let proven = try app.reauthenticate(bearer: session.access_token, recoveryCode: user.recoveryCodes[1])
        #expect(proven.status == 200, "\(proven.text)")
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token
        let passkey = try app.registerPasskey(bearer: bearer, signCount: 1)

        let response = try app.passkeySignIn(passkey.stored, signCount: 2)
        #expect(response.status == 200, "\(response.text)")
        let object = PasskeyTesting.object(response)
        #expect(object["mfa_required"] == nil && object["mfa_ticket"] == nil, "one step: \(response.text)")
        let signedIn = try response.json(SessionJSON.self)
        #expect(signedIn.user.id == user.userID)
        let claims = try AssuranceClaims.read([signedIn.access_token], port: app.port)
        #expect(claims.first?.acr == "aal2" && claims.first?.amr == ["hwk", "user", "mfa"], "\(claims)")
    }

    /// Registering a passkey is privileged: without a bearer it is refused, with a session that has not just
    /// proven itself it asks for a re-authentication, and a TOTP user's password re-authentication is not enough.
    @Test func registeringAPasskeyNeedsARecentReauthentication() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let noBearer = try app.passkeyRegistrationOptions(bearer: nil)
        #expect(noBearer.status == 401, "no bearer: \(noBearer.status) \(noBearer.text)")
        _ = try app.signUpAndConfirm("fresh@example.test", PasskeyTesting.password)
        let signedIn = try app.session("fresh@example.test", PasskeyTesting.password)
        PasskeyTesting.expect(try app.passkeyRegistrationOptions(bearer: signedIn.access_token), 401,
                              "reauthentication_required", "a sign-in is no re-authentication")

        let user = try app.enrolledUser("totp@example.test")
        let session = try app.signInWithRecoveryCode(user, 0)
        let byPassword = try app.reauthenticate(bearer: session.access_token, password: user.password)
        #expect(byPassword.status == 200, "\(byPassword.text)")
        PasskeyTesting.expect(try app.passkeyRegistrationOptions(
            bearer: try byPassword.json(ReauthenticatedJSON.self).access_token), 401, "reauthentication_required",
                              "a TOTP user's password is no aal2 proof")
    }
}
