import DeepLinkRouting
import Foundation
import LatchClient
import TestKit
import Testing

/// LatchClient+MFASignIn.swift: a right first factor of an account with a second factor signs in halfway; the
/// ticket waits in memory for the second step, which signs in as a sign-in without one does.
@Suite struct MFASignInTests {
    static let password = FakeLatchServer.password

    /// A signed-out client of an account with a second factor.
    func harness(deviceToken: String? = nil) -> Harness {
        let harness = Harness(signedIn: false, deviceToken: deviceToken)
        harness.server.enableSecondFactor()
        return harness
    }

    /// Signs in with the password and returns the ticket it got.
    func firstFactor(_ harness: Harness) async throws -> MFATicket {
        let result = try await harness.client.signIn(email: "ada@example.com", password: Self.password)
        guard case .mfaRequired(let ticket, _) = result else {
            Issue.record("expected mfaRequired, got \(result)")
            throw LatchError.notSignedIn
        }
        return ticket
    }

    @Test func aRightPasswordAnswersATicketAndStoresNothing() async throws {
        let harness = harness(deviceToken: "device-0")
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)

        let result = try await harness.client.signIn(email: "ada@example.com", password: Self.password)
        let ticket = MFATicket(value: "mfa-ticket-1", expiresAt: harness.clock.now + 300)
        #expect(result == .mfaRequired(ticket: ticket, methods: [.totp, .recoveryCode]), "webauthn is not known here")
        #expect(result.user == nil)
        #expect(await changes.next() == .secondFactorRequired(ticket: ticket, methods: [.totp, .recoveryCode]))
        #expect(harness.store.loadSession() == nil)
        #expect(harness.store.loadDeviceToken() == "device-0", "no token of any kind came")
        #expect(await harness.client.currentUser == nil)
        #expect(await harness.client.pendingMFA?.ticket == ticket)
        #expect(await harness.client.pendingMFA?.methods == [.totp, .recoveryCode])
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.accessToken() }

        var late = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await late.next() == .secondFactorRequired(ticket: ticket, methods: [.totp, .recoveryCode]),
                "a new subscriber sees the state as it is")
    }

    @Test func theAuthenticatorsCodeSignsInAsThePasswordAloneWould() async throws {
        let harness = harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)
        let ticket = try await firstFactor(harness)
        #expect(await changes.next()?.user == nil)

        await #expect(throws: LatchError.invalidMFACode) {
            try await harness.client.completeMFA(ticket: ticket, code: "000000")
        }
        #expect(await harness.client.pendingMFA?.ticket == ticket, "a wrong code keeps the ticket")
        let user = try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        #expect(user == harness.server.user(email: "ada@example.com"))
        #expect(await changes.next() == .signedIn(user), "nothing was reported for the wrong code")

        let requests = harness.server.requests("/v1/signin/mfa")
        #expect(requests.map { $0.fields as? [String: String] } == [
            ["mfa_ticket": "mfa-ticket-1", "code": "000000"],
            ["mfa_ticket": "mfa-ticket-1", "code": FakeLatchServer.totpCode],
        ])
        #expect(requests.allSatisfy { $0.method == "POST" && $0.headers["Authorization"] == nil })
        #expect(harness.store.loadSession() == harness.server.session(2))
        #expect(harness.store.loadDeviceToken() == "device-1", "kept as after a sign-in without a second factor")
        #expect(await harness.client.pendingMFA == nil)
        #expect(try await harness.client.me() == user)
        #expect(try await harness.client.sessions().first?.aal == .aal2)

        await #expect(throws: LatchError.invalidMFATicket, "used: nothing is pending") {
            try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        }
        #expect(harness.server.count("/v1/signin/mfa") == 2)
    }

    @Test func aRecoveryCodeSignsInOnce() async throws {
        let harness = harness()
        let code = FakeLatchServer.initialRecoveryCodes[0]
        let ticket = try await firstFactor(harness)
        try await harness.client.completeMFA(ticket: ticket, recoveryCode: code)
        #expect(harness.server.requests("/v1/signin/mfa").first?.fields as? [String: String]
                == ["mfa_ticket": "mfa-ticket-1", "recovery_code": code])
        #expect(await harness.client.currentUser != nil)

        try await harness.client.signOut()
        let next = try await firstFactor(harness)
        await #expect(throws: LatchError.invalidMFACode, "spent") {
            try await harness.client.completeMFA(ticket: next, recoveryCode: code)
        }
        #expect(await harness.client.currentUser == nil)
    }

    @Test func anExpiredTicketIsRefusedHereAndTheSignInIsOver() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user == nil)
        harness.clock.advance(by: 300)
        #expect(await harness.client.pendingMFA == nil)
        await #expect(throws: LatchError.invalidMFATicket) {
            try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        }
        #expect(harness.server.count("/v1/signin/mfa") == 0, "the server would refuse it")
        #expect(await changes.next() == .signedOut)
    }

    @Test func aTicketTheServerEndedEndsTheSignInHere() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        for _ in 0..<5 {
            await #expect(throws: LatchError.invalidMFACode) {
                try await harness.client.completeMFA(ticket: ticket, code: "999999")
            }
        }
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user == nil)
        await #expect(throws: LatchError.invalidMFATicket, "five wrong codes ended it at the server") {
            try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        }
        #expect(await changes.next() == .signedOut)
        #expect(await harness.client.pendingMFA == nil)
        #expect(harness.store.loadSession() == nil)
    }

    @Test(arguments: [
        (403, "user_disabled", LatchError.userDisabled, false),
        (401, "invalid_mfa_ticket", .invalidMFATicket, false),
        (429, "rate_limited", .rateLimited(retryAfter: nil), true),
        (503, "overloaded", .overloaded(retryAfter: nil), true),
    ] as [(Int, String, LatchError, Bool)])
    func refusalsThatEndTheTicketEndTheSignIn(status: Int, code: String, expected: LatchError, keeps: Bool)
        async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        harness.server.state.withLock { $0.scripted["/v1/signin/mfa"] = FakeLatchServer.error(status, code) }
        await #expect(throws: expected) {
            try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        }
        #expect((await harness.client.pendingMFA != nil) == keeps)
        #expect(harness.store.loadSession() == nil)
    }

    @Test func signingOutGivesTheSignInUpWithoutARequest() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user == nil)
        try await harness.client.signOut()
        #expect(await changes.next() == .signedOut)
        #expect(harness.server.count("/v1/signout") == 0, "there is no session to end")
        await #expect(throws: LatchError.invalidMFATicket) {
            try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        }
        #expect(harness.server.count("/v1/signin/mfa") == 0)
    }

    @Test func signingOutOthersLeavesTheWaitingSignInAlone() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        try await harness.client.signOut(scope: .others)
        #expect(await harness.client.pendingMFA?.ticket == ticket)
    }

    @Test func anAnswerArrivingAfterTheSignInWasGivenUpDoesNotSignIn() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        harness.server.mfaSignInGate.close()
        let completion = Task { try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode) }
        #expect(await eventually { harness.server.mfaSignInGate.waitingCount == 1 })
        try await harness.client.signOut()
        harness.server.mfaSignInGate.open()
        await #expect(throws: LatchError.invalidMFATicket) { try await completion.value }
        #expect(await harness.client.currentUser == nil)
        #expect(harness.store.loadSession() == nil)
        #expect(harness.server.requests("/v1/signout").map { $0.headers["Authorization"] } == ["Bearer access-2"],
                "the session nobody wants is ended at the server")
    }

    @Test func aNewSignInReplacesTheTicket() async throws {
        let harness = harness()
        let first = try await firstFactor(harness)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user == nil)
        let second = try await firstFactor(harness)
        #expect(second != first)
        #expect(await changes.next() == .secondFactorRequired(ticket: second, methods: [.totp, .recoveryCode]))
        await #expect(throws: LatchError.invalidMFATicket) {
            try await harness.client.completeMFA(ticket: first, code: FakeLatchServer.totpCode)
        }
        #expect(harness.server.count("/v1/signin/mfa") == 0)
        #expect(await harness.client.pendingMFA?.ticket == second, "the stale ticket did not end the new sign-in")
        try await harness.client.completeMFA(ticket: second, code: FakeLatchServer.totpCode)
        #expect(await changes.next()?.user != nil)
    }

    @Test func aTicketThisClientDidNotGetIsRefusedWithoutARequest() async {
        let harness = harness()
        let forged = MFATicket(value: "mfa-ticket-1", expiresAt: harness.clock.now + 300)
        await #expect(throws: LatchError.invalidMFATicket) {
            try await harness.client.completeMFA(ticket: forged, code: FakeLatchServer.totpCode)
        }
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func aSignInThatNeedsASecondFactorWhileSignedInLeavesTheSessionUntilItCompletes() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user != nil)
        let ticket = try await firstFactor(harness)
        #expect(harness.store.loadSession() == harness.server.session(1), "the session stays")
        try await harness.client.completeMFA(ticket: ticket, code: FakeLatchServer.totpCode)
        #expect(harness.store.loadSession()?.accessToken == "access-2")
        try await harness.client.signOut()
        #expect(await changes.next() == .signedOut, "the same user all along: no state but the sign-out reported")
    }

    @Test func theSignInLinkOfAnAccountWithASecondFactorAnswersATicket() async throws {
        let harness = harness()
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)
        let route = try #require(DeepLinkHandlingTests.parser.parse("myapp://signIn?token=\(mail.token)").route)

        let outcome = try await harness.client.handle(route)
        let ticket = MFATicket(value: "mfa-ticket-1", expiresAt: harness.clock.now + 300)
        #expect(outcome == .mfaRequired(ticket: ticket, methods: [.totp, .recoveryCode]))
        #expect(harness.store.loadPendingEmailSignIn() == nil, "the mail is spent either way")
        #expect(harness.store.loadSession() == nil)
        #expect(String(describing: outcome) == #"mfaRequired(methods: ["totp", "recovery_code"])"#)

        try await harness.client.completeMFA(ticket: ticket, recoveryCode: FakeLatchServer.initialRecoveryCodes[9])
        #expect(await harness.client.currentUser?.email == "ada@example.com")
    }

    @Test func theSignInCodeOfAnAccountWithASecondFactorAnswersATicket() async throws {
        let harness = harness()
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)
        let result = try await harness.client.completeEmailSignIn(email: "ada@example.com", code: mail.code)
        guard case .mfaRequired(let ticket, let methods) = result else {
            Issue.record("expected mfaRequired, got \(result)")
            return
        }
        #expect(methods == [.totp, .recoveryCode])
        #expect(await harness.client.pendingMFA?.ticket == ticket)
    }

    @Test func theTicketIsNeverPrinted() async throws {
        let harness = harness()
        let ticket = try await firstFactor(harness)
        let printed: [Any] = [
            ticket, SignInResult.mfaRequired(ticket: ticket, methods: [.totp]),
            AuthStateChange.secondFactorRequired(ticket: ticket, methods: [.totp]),
            AuthLinkOutcome.mfaRequired(ticket: ticket, methods: [.totp]),
        ]
        for value in printed {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), dumped] {
                #expect(!text.contains(ticket.value), "\(text)")
            }
        }
    }

    @Test func anAnswerWithoutTheSecondFactorFlagIsASession() async throws {
        let harness = Harness(signedIn: false)
        let result = try await harness.client.signIn(email: "ada@example.com", password: Self.password)
        #expect(result == .signedIn(harness.server.user(email: "ada@example.com")))
        #expect(String(describing: result) == "signedIn(ada@example.com)")
        #expect(await harness.client.pendingMFA == nil)
    }
}
