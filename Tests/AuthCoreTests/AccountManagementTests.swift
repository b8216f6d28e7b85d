import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// Change of password, change of address, sessions and deletion, each with the abuse it must stop: a stolen
/// access token alone takes nothing, an address cannot be claimed without its mailbox, and nothing tells an
/// attacker which addresses have accounts.
@Suite struct AccountManagementTests {
    static let newPassword = "a brand new passphrase"

    func signedIn(_ h: Harness, _ email: String = "alice@example.com") throws -> AuthenticatedUser {
        try h.service.authenticate(accessToken: h.confirmedUser(email).accessToken)
    }

    // MARK: - Password change

    @Test func changingThePasswordKeepsThisSessionAndEndsTheOthers() throws {
        let h = Harness()
        let mine = try h.confirmedUser()
        let other = try h.signIn()
        let me = try h.service.authenticate(accessToken: mine.accessToken)
        try h.forgotPassword("alice@example.com", ip: Harness.ip)
        let resetToken = h.generator.lastToken!

        try h.service.changePassword(me, currentPassword: Harness.password, newPassword: Self.newPassword, ip: Harness.ip)

        _ = try h.service.authenticate(accessToken: mine.accessToken)
        _ = try h.service.refresh(refreshToken: mine.refreshToken, ip: nil, userAgent: nil)
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: other.accessToken) }
        #expect(throws: AuthError.tokenSuperseded) {
            try h.service.resetPassword(token: resetToken, newPassword: "yet another passphrase", ip: nil)
        }
        #expect(throws: AuthError.invalidCredentials) { try h.signIn() }
        _ = try h.signIn(password: Self.newPassword)
        #expect(h.store.mails.last?.kind == .passwordChanged)
        #expect(h.store.mails.last?.deepLink == nil)
        #expect(h.store.auditEvents.contains { $0.name == .passwordChanged })
    }

    @Test func aStolenAccessTokenCannotChangeThePassword() throws {
        let h = Harness()
        let me = try signedIn(h)
        #expect(throws: AuthError.invalidCredentials) {
            try h.service.changePassword(me, currentPassword: "a wrong guess here", newPassword: Self.newPassword,
                                         ip: Harness.ip)
        }
        #expect(h.store.auditEvents.last?.name == .reauthenticationFailed)
        _ = try h.signIn()
        #expect(!h.store.mails.contains { $0.kind == .passwordChanged })
    }

    @Test func guessesThroughASessionCountTowardsTheLockoutLikeSignIns() throws {
        let h = Harness()
        let me = try signedIn(h)
        for _ in 0..<h.service.configuration.lockout.threshold {
            #expect(throws: AuthError.invalidCredentials) {
                try h.service.deleteAccount(me, password: "a wrong guess here", ip: Harness.ip)
            }
        }
        // The right password is locked out now too: a stolen token gives no unlimited oracle.
        #expect {
            try h.service.changePassword(me, currentPassword: Harness.password, newPassword: Self.newPassword,
                                         ip: Harness.ip)
        } throws: { error in
            if case .rateLimited = error as? AuthError { true } else { false }
        }
        #expect(h.user() != nil)
    }

    @Test func othersFailedSignInsDoNotLockTheOwnerOutOfReauthentication() throws {
        let h = Harness()
        let me = try signedIn(h)
        // Anyone can fail sign-ins on the address until it is locked out (and its per-email limit spent)…
        for attempt in 0..<h.service.configuration.rateLimits.signInPerEmail.limit {
            _ = try? h.service.signIn(email: "alice@example.com", password: "a wrong guess here",
                                      ip: "198.51.100.\(attempt)", userAgent: nil)
        }
        #expect {
            try h.service.signIn(email: "alice@example.com", password: Harness.password, ip: "198.51.100.99",
                                 userAgent: nil)
        } throws: { error in
            if case .rateLimited = error as? AuthError { true } else { false }
        }
        // …but the signed-in owner is judged by the session: the right password still works.
        try h.service.changePassword(me, currentPassword: Harness.password, newPassword: Self.newPassword,
                                     ip: Harness.ip)
        #expect(h.store.auditEvents.last?.name == .passwordChanged)
    }

    @Test func aSessionsFailedReauthenticationsLockOnlyThatSession() throws {
        let h = Harness()
        let stolen = try signedIn(h)
        let owners = try h.service.authenticate(accessToken: h.signIn().accessToken)
        for _ in 0..<h.service.configuration.lockout.threshold {
            #expect(throws: AuthError.invalidCredentials) {
                try h.service.deleteAccount(stolen, password: "a wrong guess here", ip: Harness.ip)
            }
        }
        #expect(h.store.auditEvents.last?.detail["session_id"] == stolen.session.id.description)
        // The owner's other session and the owner's sign-in are not locked by the thief's guesses.
        try h.service.changePassword(owners, currentPassword: Harness.password, newPassword: Self.newPassword,
                                     ip: Harness.ip)
        _ = try h.signIn(password: Self.newPassword)
    }

    @Test func aWeakNewPasswordIsRefusedBeforeThePasswordIsChecked() throws {
        let h = Harness()
        let me = try signedIn(h)
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) {
            try h.service.changePassword(me, currentPassword: "a wrong guess here", newPassword: "short", ip: nil)
        }
        #expect(!h.store.auditEvents.contains { $0.name == .reauthenticationFailed })
    }

    // MARK: - Change of address

    @Test func wrongPasswordsDoNotSpendTheNewAddresssLimit() throws {
        let h = Harness()
        let me = try signedIn(h)
        let stranger = try signedIn(h, "mallory@example.com")
        // A stranger without the right password asks again and again to move to the address the owner wants…
        for _ in 0..<h.service.configuration.rateLimits.signUpPerEmail.limit + 1 {
            #expect(throws: AuthError.invalidCredentials) {
                try h.service.requestEmailChange(stranger, newEmail: "alice.new@example.com",
                                                 password: "a wrong guess here", ip: nil)
            }
        }
        // …and has spent nothing: only requests with the right password count against the new address.
        try h.service.requestEmailChange(me, newEmail: "alice.new@example.com", password: Harness.password, ip: nil)
        #expect(h.composer.requests.last { $0.kind == .confirmEmailChange }?.recipient == "alice.new@example.com")
    }

    /// Security review finding 5: a code typed with an address used to be checked against the newest request
    /// for it only, so a stranger's request broke the rightful code and the newest mail's code moved the
    /// stranger's account onto the address.
    @Test func aCodeTypedWithTheAddressMovesOnlyTheAccountItsMailWasFor() throws {
        let h = Harness()
        let alice = try signedIn(h)
        let mallory = try signedIn(h, "mallory@example.com")
        try h.service.requestEmailChange(alice, newEmail: "wanted@example.com", password: Harness.password, ip: nil)
        let alicesCode = try #require(h.codes.lastCode)
        try h.service.requestEmailChange(mallory, newEmail: "wanted@example.com", password: Harness.password, ip: nil)
        let mallorysMail = try #require(h.composer.requests.last { $0.kind == .confirmEmailChange })
        #expect(mallorysMail.otherAddress == "m•••@example.com", "the mail names the account that asked")

        // Wrong codes with two requesters spend neither's code.
        for attempt in 0..<5 {
            #expect(throws: AuthError.invalidCode) {
                try h.service.confirmEmailChange(newEmail: "wanted@example.com", code: "9999999\(attempt)", ip: nil)
            }
        }
        let moved = try h.service.confirmEmailChange(newEmail: "wanted@example.com", code: alicesCode, ip: nil)
        #expect(moved.id == alice.user.id)
        #expect(h.user("wanted@example.com")?.id == alice.user.id)
        #expect(h.user("mallory@example.com") != nil, "mallory's account did not move")
    }

    @Test func anAddressChangesOnlyWhenTheNewMailboxConfirms() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let me = try h.service.authenticate(accessToken: issued.accessToken)
        try h.service.requestEmailChange(me, newEmail: "Alice.New@Example.com", password: Harness.password, ip: nil)
        let token = h.generator.lastToken!

        // The old address still signs in; the new one does not exist yet.
        #expect(h.user()?.email == "alice@example.com")
        let link = try #require(h.composer.requests.last { $0.kind == .confirmEmailChange })
        let notice = try #require(h.composer.requests.last { $0.kind == .emailChangeRequested })
        #expect(link.recipient == "Alice.New@example.com")
        #expect(link.code != nil)
        #expect(notice.recipient == "alice@example.com")
        #expect(notice.deepLink == nil && notice.code == nil)
        #expect(notice.otherAddress == "Alice.New@example.com")

        let changed = try h.service.confirmEmailChange(token: token, ip: nil)
        #expect(changed.email == "Alice.New@example.com")
        #expect(h.user("alice.new@example.com")?.id == me.user.id)
        #expect(h.user("alice@example.com") == nil)
        _ = try h.signIn("alice.new@example.com")
        // The session that asked is still signed in and sees the new address.
        #expect(try h.service.authenticate(accessToken: issued.accessToken).user.email == "Alice.New@example.com")
        #expect(throws: AuthError.tokenUsed) { try h.service.confirmEmailChange(token: token, ip: nil) }
    }

    @Test func theCodeConfirmsTheChangeWithTheNewAddress() throws {
        let h = Harness()
        let me = try signedIn(h)
        try h.service.requestEmailChange(me, newEmail: "new@example.com", password: Harness.password, ip: nil)
        let code = h.codes.lastCode!
        #expect(throws: AuthError.invalidCode) {
            try h.service.confirmEmailChange(newEmail: "alice@example.com", code: code, ip: nil)
        }
        #expect(try h.service.confirmEmailChange(newEmail: "NEW@example.com", code: code, ip: nil).email
            == "new@example.com")
    }

    @Test func aNewerRequestReplacesTheOlderLink() throws {
        let h = Harness()
        let me = try signedIn(h)
        try h.service.requestEmailChange(me, newEmail: "one@example.com", password: Harness.password, ip: nil)
        let first = h.generator.lastToken!
        try h.service.requestEmailChange(me, newEmail: "two@example.com", password: Harness.password, ip: nil)
        #expect(throws: AuthError.tokenSuperseded) { try h.service.confirmEmailChange(token: first, ip: nil) }
        #expect(try h.service.confirmEmailChange(token: h.generator.lastToken!, ip: nil).email == "two@example.com")
    }

    @Test func aTakenAddressGetsANoticeAndTheRequestLooksTheSame() throws {
        let h = Harness()
        try h.confirmedUser("bob@example.com")
        let me = try signedIn(h)
        let tokensBefore = h.store.snapshot.tokens.count
        try h.service.requestEmailChange(me, newEmail: "BOB@example.com", password: Harness.password, ip: nil)

        #expect(h.store.snapshot.tokens.count == tokensBefore)
        let mails = h.composer.requests.suffix(2)
        #expect(Set(mails.map(\.kind)) == [.emailChangeRequested, .emailAlreadyRegistered])
        #expect(mails.allSatisfy { $0.deepLink == nil && $0.code == nil })
        #expect(h.user("bob@example.com")?.email == "bob@example.com")
    }

    @Test func whoeverConfirmsFirstGetsTheAddress() throws {
        let h = Harness()
        let alice = try signedIn(h, "alice@example.com")
        let carol = try signedIn(h, "carol@example.com")
        try h.service.requestEmailChange(alice, newEmail: "prize@example.com", password: Harness.password, ip: nil)
        let alicesLink = h.generator.lastToken!
        try h.service.requestEmailChange(carol, newEmail: "prize@example.com", password: Harness.password, ip: nil)
        let carolsLink = h.generator.lastToken!

        _ = try h.service.confirmEmailChange(token: carolsLink, ip: nil)
        #expect(throws: AuthError.emailTaken) { try h.service.confirmEmailChange(token: alicesLink, ip: nil) }
        #expect(h.user("alice@example.com") != nil)
        #expect(h.user("prize@example.com")?.id == carol.user.id)
    }

    @Test func aStolenAccessTokenCannotMoveTheAccount() throws {
        let h = Harness()
        let me = try signedIn(h)
        #expect(throws: AuthError.invalidCredentials) {
            try h.service.requestEmailChange(me, newEmail: "attacker@example.com", password: "a wrong guess", ip: nil)
        }
        #expect(!h.composer.requests.contains { $0.recipient == "attacker@example.com" })
    }

    @Test func theSameAddressOrABadOneIsRefused() throws {
        let h = Harness()
        let me = try signedIn(h)
        #expect(throws: AuthError.emailUnchanged) {
            try h.service.requestEmailChange(me, newEmail: "ALICE@example.com", password: Harness.password, ip: nil)
        }
        #expect(throws: AuthError.invalidEmail) {
            try h.service.requestEmailChange(me, newEmail: "not an address", password: Harness.password, ip: nil)
        }
    }

    @Test func aPasswordChangeVoidsAPendingChangeOfAddress() throws {
        let h = Harness()
        let me = try signedIn(h)
        try h.service.requestEmailChange(me, newEmail: "new@example.com", password: Harness.password, ip: nil)
        let link = h.generator.lastToken!
        try h.service.changePassword(me, currentPassword: Harness.password, newPassword: Self.newPassword, ip: nil)
        #expect(throws: AuthError.tokenSuperseded) { try h.service.confirmEmailChange(token: link, ip: nil) }
    }

    @Test func theLandingPreviewMasksBothAddresses() throws {
        let h = Harness()
        let me = try signedIn(h)
        try h.service.requestEmailChange(me, newEmail: "bob.new@example.org", password: Harness.password, ip: nil)
        let preview = try #require(try h.service.emailChangePreview(token: h.generator.lastToken!))
        #expect(preview.from == "a•••@example.com")
        #expect(preview.to == "b•••@example.org")
        #expect(try h.service.emailChangePreview(token: "unknown") == nil)
    }

    // MARK: - Sessions

    @Test func sessionsListTheLiveOnesAndOneCanBeEndedButNotSomeoneElses() throws {
        let h = Harness()
        let mine = try h.confirmedUser()
        h.clock.advance(by: 1)
        let phone = try h.signIn()
        let bob = try h.confirmedUser("bob@example.com")
        let me = try h.service.authenticate(accessToken: mine.accessToken)
        let bobs = try h.service.authenticate(accessToken: bob.accessToken)

        let listed = try h.service.sessions(of: me)
        #expect(listed.count == 2)
        let phoneID = try h.service.authenticate(accessToken: phone.accessToken).session.id
        #expect(listed.first?.session.id == phoneID)

        #expect(throws: AuthError.sessionNotFound) { try h.service.revokeSession(bobs.session.id, of: me, ip: nil) }
        _ = try h.service.authenticate(accessToken: bob.accessToken)
        try h.service.revokeSession(phoneID, of: me, ip: nil)
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: phone.accessToken) }
        #expect(throws: AuthError.sessionNotFound) { try h.service.revokeSession(phoneID, of: me, ip: nil) }
        #expect(try h.service.sessions(of: me).map(\.session.id) == [me.session.id])
    }

    @Test func signingOutOthersKeepsThisSession() throws {
        let h = Harness()
        let mine = try h.confirmedUser()
        let other = try h.signIn()
        try h.service.signOut(try h.service.authenticate(accessToken: mine.accessToken), scope: .others, ip: nil)
        _ = try h.service.authenticate(accessToken: mine.accessToken)
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: other.accessToken) }
    }

    // MARK: - Deletion

    @Test func deletingTheAccountNeedsThePasswordAndForgetsTheAddress() throws {
        let h = Harness()
        let me = try signedIn(h)
        #expect(throws: AuthError.invalidCredentials) {
            try h.service.deleteAccount(me, password: "a wrong guess here", ip: nil)
        }
        #expect(h.user() != nil)

        try h.service.deleteAccount(me, password: Harness.password, ip: Harness.ip)
        #expect(h.user() == nil)
        #expect(h.store.snapshot.sessions.isEmpty)
        #expect(h.store.mails.map(\.kind) == [.accountDeleted])
        #expect(!h.auditStrings.contains { $0.lowercased().contains("alice") })
        #expect(h.store.auditEvents.last?.name == .accountDeleted)
        #expect(h.store.auditEvents.last?.userID == me.user.id)
        // The address is free again, for a new account.
        try h.signUp()
        #expect(h.user() != nil)
    }
}
