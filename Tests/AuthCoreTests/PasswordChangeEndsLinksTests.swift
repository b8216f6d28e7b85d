import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// A password change (a reset, here) ends every link and every session issued before it, including those whose
/// writes raced it; confirm links of a confirmed address open nothing.
@Suite struct PasswordChangeEndsLinksTests {
    let newPassword = "a brand new secret"

    @Test func aConfirmLinkIssuedBeforeAResetNoLongerRedeemsOrOpensASession() throws {
        let h = Harness()
        let confirmLink = try h.signUp()
        try h.resendConfirmation("alice@example.com", ip: nil)
        let resent = try #require(h.generator.lastToken)
        try h.forgotPassword("alice@example.com", ip: nil)
        let reset = try #require(h.generator.lastToken)
        try h.service.resetPassword(token: reset, newPassword: newPassword, ip: nil)

        for link in [confirmLink, resent] {
            #expect(throws: AuthError.tokenSuperseded) { try h.service.confirm(token: link, ip: nil, userAgent: nil) }
        }
        #expect(h.store.snapshot.sessions.isEmpty, "no session from a link issued before the reset")
    }

    @Test func aConfirmLinkOfAConfirmedAddressOpensNoSession() throws {
        let h = Harness()
        let first = try h.signUp()
        try h.resendConfirmation("alice@example.com", ip: nil)
        let second = try #require(h.generator.lastToken)
        _ = try h.service.confirm(token: first, ip: nil, userAgent: nil)
        let sessions = h.store.snapshot.sessions.count

        // Confirming supersedes the other confirm links of the address.
        #expect(throws: AuthError.tokenSuperseded) { try h.service.confirm(token: second, ip: nil, userAgent: nil) }
        // A link issued afterwards (an operator's) finds the address confirmed.
        let later = h.generator.makeToken()
        try h.store.insertToken(hash: h.generator.digest(later), userID: try #require(h.user()).id, purpose: .confirm,
                                createdAt: h.clock.now(), expiresAt: h.clock.now().addingTimeInterval(3600),
                                codeDigest: nil)
        #expect(throws: AuthError.alreadyConfirmed) { try h.service.confirm(token: later, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.alreadyConfirmed) { try h.service.confirmEmail(token: later, ip: nil) }
        #expect(h.store.snapshot.sessions.count == sessions)
        #expect(try h.service.tokenState(later, purpose: .confirm) == .failed(.alreadyConfirmed))
    }

    @Test func aLinkWhoseInsertRacedAPasswordChangeIsDeadOnArrival() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.forgotPassword("alice@example.com", ip: nil)
        let raced = try #require(h.generator.lastToken)
        // The change committed after the link's row was written but before any supersede could see it: only the
        // password version tells.
        h.store.state.withLock { state in
            let id = state.users.keys.first!
            state.users[id]?.passwordVersion += 1
        }
        #expect(throws: AuthError.tokenSuperseded) {
            try h.service.resetPassword(token: raced, newPassword: newPassword, ip: nil)
        }
    }

    @Test func aSignInWhoseVerifyOverlapsAResetOpensNoSessionAndWritesNoOldHash() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.forgotPassword("alice@example.com", ip: nil)
        let reset = try #require(h.generator.lastToken)
        h.hasher.setVersion("fake2")  // the sign-in would rehash the old password
        let service = h.service
        let newPassword = self.newPassword
        h.hasher.duringNextVerify {
            _ = try? service.resetPassword(token: reset, newPassword: newPassword, ip: nil)
        }

        let sessions = h.store.snapshot.sessions.count
        #expect(throws: AuthError.invalidCredentials) { try h.signIn() }
        #expect(h.store.snapshot.sessions.count == sessions, "no session for the password the reset replaced")
        #expect(h.user()?.passwordHash == "fake2$" + String(newPassword.reversed()), "the reset's hash stays")
        _ = try h.signIn(password: newPassword)
    }

    @Test func aSessionOpenedUnderAnOlderPasswordVersionIsEnded() throws {
        let h = Harness()
        let session = try h.confirmedUser()
        h.store.state.withLock { state in
            let id = state.users.keys.first!
            state.users[id]?.passwordVersion += 1
        }
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: session.accessToken) }
        #expect(throws: AuthError.invalidSession) {
            try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil)
        }
    }
}
