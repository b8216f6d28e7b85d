import AuthCore
import AuthCoreTesting
import DeepLinkRouting
import Foundation
import Testing

/// `AdminOperations` over the in-memory fakes: links are issued like the API's, mail only on request, every
/// change audited with the actor and no secret.
@Suite struct AdminOperationsTests {
    let harness = Harness()
    var operations: AdminOperations {
        AdminOperations(service: harness.service, actor: "opal")
    }

    @Test func aLinkWithoutSendIsStoredHashedRedeemsThroughTheAPIAndQueuesNoMail() throws {
        try harness.signUp()
        let mailsBefore = harness.store.snapshot.outbox.count
        let link = try operations.issueLink(email: "ALICE@example.com", purpose: .confirm, send: false)

        #expect(harness.store.snapshot.outbox.count == mailsBefore, "no mail without --send")
        #expect(link.universalURL.absoluteString == "https://links.example.com/confirmAuth?token=\(link.token)")
        #expect(link.customSchemeURL.absoluteString == "myapp://confirmAuth?token=\(link.token)")
        #expect(link.expiresAt == harness.clock.now().addingTimeInterval(24 * 3600))
        let stored = harness.store.snapshot.tokens[harness.generator.digest(link.token)]
        #expect(stored?.record.purpose == .confirm)
        #expect(!harness.store.snapshot.tokens.keys.contains(Data(link.token.utf8)), "only the digest is stored")

        _ = try harness.service.confirm(token: link.token, ip: nil, userAgent: nil)
        #expect(throws: AuthError.tokenUsed) { try harness.service.confirm(token: link.token, ip: nil, userAgent: nil) }
    }

    @Test func sendQueuesTheMailWithTheSameLinkAndTheRequestedLifetime() throws {
        try harness.signUp()
        let link = try operations.issueLink(email: "alice@example.com", purpose: .reset, ttl: 1800, send: true)
        let mail = try #require(harness.store.snapshot.outbox.last)
        #expect(mail.kind == .resetPassword)
        #expect(mail.deepLink == link.universalURL)
        #expect(harness.composer.requests.last?.linkLifetime == 1800)
        #expect(link.expiresAt == harness.clock.now().addingTimeInterval(1800))
        #expect(link.mailQueued)
    }

    @Test func theIssueIsAuditedWithTheActorAndNeverTheToken() throws {
        try harness.signUp()
        let link = try operations.issueLink(email: "alice@example.com", purpose: .confirm, send: false)
        let event = try #require(harness.store.snapshot.audit.last)
        #expect(event.name == .tokenIssuedByCLI)
        #expect(event.detail["actor"] == "opal")
        #expect(event.detail["purpose"] == "confirm")
        #expect(event.detail["sent"] == "false")
        #expect(!harness.auditStrings.contains { $0.contains(link.token) })
    }

    @Test func unknownDisabledAndNonPositiveLifetimesAreRefused() throws {
        #expect(throws: AdminOperations.Failure.unknownUser(email: "nobody@example.com")) {
            try operations.issueLink(email: "nobody@example.com", purpose: .confirm, send: false)
        }
        try harness.signUp()
        #expect(throws: AdminOperations.Failure.invalidLifetime) {
            try operations.issueLink(email: "alice@example.com", purpose: .confirm, ttl: 0, send: false)
        }
        _ = try operations.disable(email: "alice@example.com")
        #expect(throws: AdminOperations.Failure.userDisabled(email: "alice@example.com")) {
            try operations.issueLink(email: "alice@example.com", purpose: .reset, send: false)
        }
    }

    @Test func createUserAppliesThePolicyHashesAndQueuesNoMail() throws {
        #expect(throws: AuthError.weakPassword(.passwordTooCommon)) {
            try operations.createUser(email: "dave@example.com", password: "password", confirmed: false)
        }
        let user = try operations.createUser(email: "dave@Example.COM", password: "correct horse battery", confirmed: true)
        #expect(user.email == "dave@example.com")
        #expect(user.isConfirmed)
        #expect(harness.hasher.verify("correct horse battery", against: user.passwordHash))
        #expect(harness.store.snapshot.outbox.isEmpty)
        #expect(throws: AdminOperations.Failure.emailTaken(email: "DAVE@example.com")) {
            try operations.createUser(email: "DAVE@example.com", password: nil, confirmed: false)
        }
        #expect(!harness.auditStrings.contains { $0.contains("correct horse") })
    }

    @Test func createUserWithoutPasswordGetsARandomOne() throws {
        let user = try operations.createUser(email: "erin@example.com", password: nil, confirmed: false)
        #expect(!user.isConfirmed)
        #expect(!user.passwordHash.isEmpty)
        #expect(harness.store.snapshot.audit.last?.detail["password_set"] == "false")
    }

    @Test func disableRevokesEverySessionAndEnableLetsTheUserBackIn() throws {
        let issued = try harness.confirmedUser()
        _ = try harness.signIn()
        let (user, revoked) = try operations.disable(email: "alice@example.com")
        #expect(user.isDisabled)
        #expect(revoked == 2)
        #expect(throws: AuthError.invalidSession) { try harness.service.authenticate(accessToken: issued.accessToken) }
        #expect(harness.store.snapshot.audit.last?.name == .sessionRevoked)
        #expect(harness.store.snapshot.audit.last?.detail["actor"] == "opal")

        #expect(try !operations.enable(email: "alice@example.com").isDisabled)
        #expect(harness.store.snapshot.audit.last?.name == .userEnabled)
        #expect(harness.store.snapshot.audit.last?.detail["actor"] == "opal")
        _ = try harness.signIn()
    }

    @Test func revokeSessionOnlyRevokesTheUsersOwnSession() throws {
        let alice = try harness.confirmedUser()
        _ = try harness.confirmedUser("bob@example.com")
        let aliceSession = try harness.service.authenticate(accessToken: alice.accessToken).session.id
        #expect(throws: AdminOperations.Failure.unknownSession(id: aliceSession, email: "bob@example.com")) {
            try operations.revokeSession(email: "bob@example.com", id: aliceSession)
        }
        try operations.revokeSession(email: "alice@example.com", id: aliceSession)
        #expect(throws: AuthError.invalidSession) { try harness.service.authenticate(accessToken: alice.accessToken) }
        #expect(harness.store.snapshot.audit.last?.detail["session_id"] == aliceSession.description)
    }

    @Test func confirmAndDeleteFindUsersCaseInsensitively() throws {
        try harness.signUp()
        #expect(try operations.confirmEmail(email: "Alice@EXAMPLE.com").isConfirmed)
        _ = try operations.deleteUser(email: "ALICE@example.com")
        #expect(harness.user() == nil)
        #expect(harness.store.snapshot.audit.last?.name == .userDeleted)
        #expect(harness.store.snapshot.audit.last?.detail["actor"] == "opal")
        #expect(!harness.auditStrings.contains { $0.lowercased().contains("alice") })
        #expect(harness.store.mails.last?.kind == .accountDeleted)
        #expect(throws: AdminOperations.Failure.unknownUser(email: "alice@example.com")) {
            try operations.deleteUser(email: "alice@example.com")
        }
    }

    @Test func setEmailMovesTheAccountAndVoidsEveryLinkMailedBefore() throws {
        let confirmLink = try harness.signUp()
        try harness.confirmedUser("bob@example.com")
        #expect(throws: AdminOperations.Failure.emailTaken(email: "BOB@example.com")) {
            try operations.setEmail(email: "alice@example.com", to: "BOB@example.com", confirmed: true)
        }
        let moved = try operations.setEmail(email: "alice@example.com", to: "alice@new.example", confirmed: true)
        #expect(moved.email == "alice@new.example" && moved.isConfirmed)
        #expect(throws: AuthError.tokenSuperseded) { try harness.service.confirm(token: confirmLink, ip: nil, userAgent: nil) }
        _ = try harness.signIn("alice@new.example")
        let audit = try #require(harness.store.snapshot.audit.last { $0.name == .emailChanged })
        #expect(audit.detail["old_email"] == "alice@example.com" && audit.detail["actor"] == "opal")
        #expect(throws: AuthError.invalidEmail) {
            try operations.setEmail(email: "alice@new.example", to: "nope", confirmed: false)
        }
    }

    @Test func pendingChangesOfAddressAreListed() throws {
        let issued = try harness.confirmedUser()
        let me = try harness.service.authenticate(accessToken: issued.accessToken)
        #expect(try operations.pendingEmailChanges(email: "alice@example.com").isEmpty)
        try harness.service.requestEmailChange(me, newEmail: "later@example.com", password: Harness.password, ip: nil)
        #expect(try operations.pendingEmailChanges(email: "alice@example.com") == ["later@example.com"])
    }

    // MARK: - Second factors

    @Test func resetRemovesEveryFactorCodeAndTicketEndsTheSessionsMailsAndAudits() throws {
        let enrolled = try SecondFactorTests.enrol(harness)
        let challenge = try SecondFactorTests.challenge(harness)
        let userID = try #require(harness.user()?.id)
        #expect(harness.user()?.hasSecondFactor == true)
        let mailsBefore = harness.store.mails.count

        let reset = try operations.resetSecondFactor(email: "Alice@Example.com")

        #expect(reset.user.email == "alice@example.com")
        #expect(reset.removedFactors == 1)
        #expect(reset.revokedSessions == 1, "the session the factor was activated on")
        #expect(reset.mailQueued)
        let state = harness.store.snapshot
        #expect(!state.factors.values.contains { $0.userID == userID })
        #expect(state.recoveryCodes[userID] == nil)
        #expect(!state.tickets.values.contains { $0.ticket.userID == userID })
        #expect(harness.user()?.hasSecondFactor == false)
        #expect(throws: AuthError.invalidSession) { try harness.service.authenticate(accessToken: enrolled.accessToken) }
        #expect(throws: AuthError.invalidMFATicket) {
            try harness.service.completeSecondFactor(
                ticket: challenge.ticket, proof: .recoveryCode(enrolled.recoveryCodes[0]), ip: nil, userAgent: nil)
        }

        #expect(harness.store.mails.count == mailsBefore + 1)
        let mail = try #require(harness.store.mails.last)
        #expect(mail.kind == .secondFactorRemoved)
        #expect(mail.recipient == "alice@example.com")
        #expect(mail.userID == userID)
        let audit = try #require(harness.store.auditEvents.last)
        #expect(audit.name == .secondFactorReset)
        #expect(audit.userID == userID)
        #expect(audit.detail == [
            "actor": "opal", "source": "latchctl", "removed_factors": "1", "revoked_sessions": "1", "mail_queued": "true",
        ])
        #expect(!harness.auditStrings.contains { value in enrolled.recoveryCodes.contains { value.contains($0) } })

        // The first factor alone signs in again, and the user may enrol anew.
        _ = try harness.signIn()
        let again = try SecondFactorTests.enrol(harness, session: try harness.signIn())
        #expect(try harness.service.secondFactorStatus(
            try SecondFactorTests.authenticated(harness, again.accessToken)).factors.count == 1)
    }

    @Test func resetRemovesEveryActiveFactorOfTheUserAndNoOneElses() throws {
        let alice = try SecondFactorTests.enrol(harness)
        let bob = try SecondFactorTests.enrol(harness, session: try harness.confirmedUser("bob@example.com"))
        let aliceID = try #require(harness.user()?.id)
        // A second authenticator of Alice's, written as the store would hold it.
        let now = harness.clock.now()
        let spare = TOTPFactorRecord(
            id: FactorID(), userID: aliceID, name: "Tablet", sealedSecret: Data(repeating: 7, count: 48),
            createdAt: now, activatedAt: now)
        harness.store.state.withLock { $0.factors[spare.id] = spare }

        let reset = try operations.resetSecondFactor(email: "alice@example.com")

        #expect(reset.removedFactors == 2)
        #expect(!harness.store.snapshot.factors.values.contains { $0.userID == aliceID })
        #expect(throws: AuthError.invalidSession) { try harness.service.authenticate(accessToken: alice.accessToken) }
        #expect(try harness.service.authenticate(accessToken: bob.accessToken).session.assurance == .aal2)
        #expect(harness.user("bob@example.com")?.hasSecondFactor == true)
        #expect(harness.store.snapshot.recoveryCodes[try #require(harness.user("bob@example.com")?.id)]?.count == 10)
    }

    @Test func resetOfAUserWithoutAFactorEndsNoSessionAndMailsNothing() throws {
        let issued = try harness.confirmedUser()
        // A pending enrolment is no second factor, but it goes.
        let proven = try harness.service.reauthenticate(
            try SecondFactorTests.authenticated(harness, issued.accessToken), password: Harness.password, ip: nil)
        _ = try harness.service.enrolTOTP(try SecondFactorTests.authenticated(harness, proven.accessToken), name: nil, ip: nil)
        #expect(harness.store.snapshot.factors.count == 1)
        let mailsBefore = harness.store.mails.count

        let reset = try operations.resetSecondFactor(email: "alice@example.com")

        #expect(reset.removedFactors == 0 && reset.revokedSessions == 0 && !reset.mailQueued)
        #expect(harness.store.snapshot.factors.isEmpty)
        #expect(harness.store.mails.count == mailsBefore)
        #expect(try harness.service.authenticate(accessToken: proven.accessToken).session.revokedAt == nil)
        let audit = try #require(harness.store.auditEvents.last)
        #expect(audit.name == .secondFactorReset)
        #expect(audit.detail["removed_factors"] == "0" && audit.detail["mail_queued"] == "false")
        #expect(audit.detail["actor"] == "opal")
    }

    @Test func aRepeatedResetSucceedsWithoutASecondMail() throws {
        _ = try SecondFactorTests.enrol(harness)
        #expect(try operations.resetSecondFactor(email: "alice@example.com").removedFactors == 1)
        let session = try harness.signIn()
        let mails = harness.store.mails.count

        let again = try operations.resetSecondFactor(email: "alice@example.com")

        #expect(again.removedFactors == 0 && again.revokedSessions == 0 && !again.mailQueued)
        #expect(harness.store.mails.count == mails)
        #expect(try harness.service.authenticate(accessToken: session.accessToken).session.revokedAt == nil,
                "a session opened after the first reset stays")
    }

    @Test func resetOfAnUnknownUserIsRefused() throws {
        #expect(throws: AdminOperations.Failure.unknownUser(email: "nobody@example.com")) {
            try operations.resetSecondFactor(email: "nobody@example.com")
        }
        #expect(harness.store.auditEvents.isEmpty)
    }
}
