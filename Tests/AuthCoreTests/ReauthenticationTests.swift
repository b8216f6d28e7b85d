import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// Proof of presence (RFC 9470): a privileged change takes the current password or a re-authentication of the
/// session within `privilegedMaxAge`; a fresh sign-in alone is not enough, failures count per session, and the
/// access token presented before the proof stops working.
@Suite struct ReauthenticationTests {
    static func authenticated(_ h: Harness, _ issued: IssuedSession) throws -> AuthenticatedUser {
        try h.service.authenticate(accessToken: issued.accessToken)
    }

    /// The code of the newest re-authentication mail.
    static func mailedCode(_ h: Harness) throws -> String {
        try #require(h.composer.requests.last { $0.kind == .reauthenticationCode }?.code)
    }

    @Test func aFreshSignInIsNoProof() throws {
        let h = Harness()
        let session = try Self.authenticated(h, try h.confirmedUser())
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.deleteAccount(session, password: nil, ip: nil)
        }
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.requestEmailChange(session, newEmail: "new@example.com", password: nil, ip: nil)
        }
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.changePassword(session, currentPassword: nil, newPassword: "another passphrase", ip: nil)
        }
        #expect(h.user() != nil)
    }

    @Test func aMailedCodeProvesPresenceForTheWindowWithTheNewToken() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let before = try Self.authenticated(h, issued)
        try h.service.requestReauthenticationCode(before, ip: nil)
        h.clock.advance(by: 5)
        let proven = try h.service.reauthenticate(before, emailCode: try Self.mailedCode(h), ip: nil)
        #expect(proven.reauthenticatedUntil == AccessTokenClaims.wholeSeconds(h.clock.now()).addingTimeInterval(600))
        // The token presented before the proof is replaced: one stolen earlier cannot ride on it.
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: issued.accessToken) }
        let after = try h.service.authenticate(accessToken: proven.accessToken)
        #expect(after.session.id == before.session.id)
        let claims = try h.service.verifyAccessToken(proven.accessToken)
        #expect(claims.authTime == AccessTokenClaims.wholeSeconds(h.clock.now()))
        h.clock.advance(by: 599)
        try h.service.changePassword(after, currentPassword: nil, newPassword: "another passphrase", ip: nil)
        #expect(h.store.auditEvents.contains { $0.name == .reauthenticated && $0.detail["with"] == "email_code" })
    }

    @Test func theWindowCloses() throws {
        let h = Harness()
        let before = try Self.authenticated(h, try h.confirmedUser())
        let proven = try h.service.reauthenticate(before, password: Harness.password, ip: nil)
        h.clock.advance(by: 600)
        let after = try h.service.authenticate(accessToken: proven.accessToken)
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.deleteAccount(after, password: nil, ip: nil)
        }
    }

    /// A refresh keeps `auth_time`: it proves nothing new.
    @Test func aRefreshKeepsAuthTime() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let signedInAt = AccessTokenClaims.wholeSeconds(h.clock.now())
        h.clock.advance(by: 120)
        let refreshed = try h.service.refresh(refreshToken: issued.refreshToken, ip: nil, userAgent: nil)
        #expect(try h.service.verifyAccessToken(refreshed.accessToken).authTime == signedInAt)
    }

    @Test func wrongCodesCountPerSessionAndFiveSpendTheCode() throws {
        let h = Harness()
        let first = try Self.authenticated(h, try h.confirmedUser())
        let second = try Self.authenticated(h, try h.signIn())
        try h.service.requestReauthenticationCode(first, ip: nil)
        let code = try Self.mailedCode(h)
        // Another session of the same user cannot use it.
        #expect(throws: AuthError.invalidCode) { try h.service.reauthenticate(second, emailCode: code, ip: nil) }
        for _ in 0..<5 {
            #expect(throws: AuthError.invalidCode) { try h.service.reauthenticate(first, emailCode: "12345678", ip: nil) }
        }
        #expect(throws: (any Error).self) { try h.service.reauthenticate(first, emailCode: code, ip: nil) }
        // The owner's sign-in and the other session are not locked by these failures.
        _ = try h.signIn()
        _ = try h.service.reauthenticate(second, password: Harness.password, ip: nil)
        #expect(h.store.auditEvents.filter { $0.name == .reauthenticationFailed }.count == 6)
    }

    @Test func aNewerCodeReplacesTheOlder() throws {
        let h = Harness()
        let session = try Self.authenticated(h, try h.confirmedUser())
        try h.service.requestReauthenticationCode(session, ip: nil)
        let older = try Self.mailedCode(h)
        try h.service.requestReauthenticationCode(session, ip: nil)
        #expect(throws: AuthError.invalidCode) { try h.service.reauthenticate(session, emailCode: older, ip: nil) }
        _ = try h.service.reauthenticate(session, emailCode: try Self.mailedCode(h), ip: nil)
    }

    @Test func aWrongPasswordIsRefusedAndProvesNothing() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let session = try Self.authenticated(h, issued)
        #expect(throws: AuthError.invalidCredentials) {
            try h.service.reauthenticate(session, password: "not the password", ip: nil)
        }
        let still = try Self.authenticated(h, issued)
        #expect(still.session.reauthenticatedAt == nil)
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.deleteAccount(still, password: nil, ip: nil)
        }
    }

    /// A success forgets the session's failures: typos before it must not bring a lockout closer afterwards.
    @Test func aProofForgivesTheSessionsEarlierFailures() throws {
        let h = Harness()
        let session = try Self.authenticated(h, try h.confirmedUser())
        for _ in 0..<4 {
            #expect(throws: AuthError.invalidCredentials) { try h.service.reauthenticate(session, password: "typo", ip: nil) }
        }
        let proven = try h.service.reauthenticate(session, password: Harness.password, ip: nil)
        let after = try h.service.authenticate(accessToken: proven.accessToken)
        for _ in 0..<4 {
            #expect(throws: AuthError.invalidCredentials) { try h.service.reauthenticate(after, password: "typo", ip: nil) }
        }
    }

    /// An account without a password (signed in by mail) sets one after re-authenticating by mail.
    @Test func anAccountWithoutAPasswordSetsOneAfterReauthenticating() throws {
        let h = Harness()
        try h.signUp()
        try EmailSignInTests.ask(h)
        let issued = try EmailSignInTests.redeem(h, token: try EmailSignInTests.mailed(h).token)
        let session = try Self.authenticated(h, issued)
        try h.service.requestReauthenticationCode(session, ip: nil)
        let proven = try h.service.reauthenticate(session, emailCode: try Self.mailedCode(h), ip: nil)
        try h.service.changePassword(try h.service.authenticate(accessToken: proven.accessToken), currentPassword: nil,
                                     newPassword: "my own passphrase", ip: nil)
        _ = try h.signIn(password: "my own passphrase")
    }
}
