import DeepLinkRouting
import Foundation
// For SHA-256 and base64url, to check the binding against the secret (SHA256Tests checks them).
@testable import LatchClient
import TestKit
import Testing

/// LatchClient+EmailSignIn.swift: sign-in by mail, bound to the secret this app instance keeps for the attempt.
@Suite struct EmailSignInTests {
    static let parser = DeepLinkHandlingTests.parser

    func link(_ mail: FakeLatchServer.SignInMail) throws -> DeepLinkRoute {
        try #require(Self.parser.parse("https://links.example.com/signIn?token=\(mail.token)").route)
    }

    func binding(_ request: TransportRequest?) -> String? { request?.fields["binding"] as? String }

    @Test func askingPostsTheAddressAndTheBindingOnlyAndKeepsTheAttempt() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: " ada@example.com\n")
        let request = try #require(harness.server.requests("/v1/signin/email").first)
        #expect(request.method == "POST")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(Set(request.fields.keys) == ["email", "binding"])
        #expect(request.fields["email"] as? String == "ada@example.com")

        let pending = try #require(harness.store.loadPendingEmailSignIn())
        #expect(pending.email == "ada@example.com")
        #expect(pending.bindingSecret.count == 32)
        #expect(pending.requestedAt == harness.clock.now)
        let sent = try #require(binding(request))
        #expect(sent.count == 43)
        #expect(sent == EmailSignInBinding.base64URL(SHA256Hash.digest(pending.bindingSecret)))
        #expect(await harness.client.pendingEmailSignInAddress == "ada@example.com")
        #expect(await harness.client.currentUser == nil)
    }

    @Test func theLinkSignsInWithTheSecretTheBindingWasMadeOfAndEndsTheAttempt() async throws {
        let harness = Harness(signedIn: false)
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next() == .signedOut)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)

        let outcome = try await harness.client.handle(try link(mail))
        let user = harness.server.user(email: "ada@example.com")
        #expect(outcome == .signedIn(user))
        #expect(await changes.next() == .signedIn(user))
        let verify = try #require(harness.server.requests("/v1/signin/email/verify").first)
        #expect(verify.headers["Authorization"] == nil)
        #expect(Set(verify.fields.keys) == ["token", "binding_secret"], "no device token: the endpoint takes none")
        #expect(verify.fields["token"] as? String == mail.token)
        let secret = try #require(verify.fields["binding_secret"] as? String)
        #expect(secret.count == 43)
        let bytes = try #require(FakeLatchServer.decodeBase64URL(secret))
        #expect(EmailSignInBinding.base64URL(SHA256Hash.digest(bytes))
                == binding(harness.server.requests("/v1/signin/email").first), "S and SHA-256(S) agree")

        #expect(harness.store.loadSession()?.user == user)
        #expect(harness.store.loadDeviceToken() == "device-1")
        #expect(harness.store.loadPendingEmailSignIn() == nil, "spent: dropped")
        #expect(await harness.client.pendingEmailSignInAddress == nil)
        await #expect(throws: LatchError.noPendingEmailSignIn) { try await harness.client.handle(try link(mail)) }
        #expect(harness.server.count("/v1/signin/email/verify") == 1, "the second try sent nothing")
    }

    @Test func theCodeSignsInWithTheAddressItWentToAndAWrongOneKeepsTheAttempt() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)

        await #expect(throws: LatchError.invalidCode) {
            try await harness.client.completeEmailSignIn(email: "ada@example.com", code: "00000000")
        }
        #expect(harness.store.loadPendingEmailSignIn() != nil, "a mistyped code keeps the attempt")
        let result = try await harness.client.completeEmailSignIn(email: "ADA@example.com ", code: mail.code)
        let user = try #require(result.user)
        #expect(user.email == "ada@example.com")
        #expect(await harness.client.currentUser == user)
        let verify = try #require(harness.server.requests("/v1/signin/email/verify").last)
        #expect(Set(verify.fields.keys) == ["email", "code", "binding_secret"])
        #expect(verify.fields["email"] as? String == "ADA@example.com")
        #expect(verify.fields["code"] as? String == mail.code)
        #expect(harness.store.loadPendingEmailSignIn() == nil)
    }

    @Test func aSecondTapWithinAMinuteReusesTheSecretSoTheMailOnItsWayStillWorks() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        harness.clock.advance(by: 30)
        try await harness.client.requestEmailSignIn(email: "ADA@Example.com")
        let requests = harness.server.requests("/v1/signin/email")
        #expect(requests.count == 2)
        #expect(binding(requests[0]) == binding(requests[1]))
        #expect(harness.server.signInMails.count == 1, "the server mailed once; the second request mailed nothing")

        let mail = try #require(harness.server.signInMails.first)
        let outcome = try await harness.client.handle(try link(mail))
        #expect(outcome == .signedIn(harness.server.user(email: "ada@example.com")))
    }

    @Test func theSecretIsReusedForFifteenMinutesAfterTheLatestRequestAndNotAfter() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        harness.clock.advance(by: PendingEmailSignIn.lifetime - 1)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        #expect(harness.store.loadPendingEmailSignIn()?.requestedAt == harness.clock.now, "moved on")
        harness.clock.advance(by: PendingEmailSignIn.lifetime - 1)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        harness.clock.advance(by: PendingEmailSignIn.lifetime)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")

        let bindings = harness.server.requests("/v1/signin/email").map(binding)
        #expect(bindings[0] == bindings[1] && bindings[1] == bindings[2])
        #expect(bindings[3] != bindings[2], "fifteen minutes without a request: a new secret")
        #expect(Set(bindings.compactMap { $0 }).count == 2)
    }

    @Test func anAttemptFifteenMinutesOldNoLongerCompletesAndIsDropped() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)
        harness.clock.advance(by: PendingEmailSignIn.lifetime)
        #expect(await harness.client.pendingEmailSignInAddress == nil)
        await #expect(throws: LatchError.noPendingEmailSignIn) {
            try await harness.client.completeEmailSignIn(email: "ada@example.com", code: mail.code)
        }
        #expect(harness.store.loadPendingEmailSignIn() == nil)
        #expect(harness.server.count("/v1/signin/email/verify") == 0)
    }

    @Test func anotherAddressReplacesTheAttempt() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)
        try await harness.client.requestEmailSignIn(email: "bob@example.com")
        let requests = harness.server.requests("/v1/signin/email")
        #expect(binding(requests[0]) != binding(requests[1]))
        #expect(harness.store.loadPendingEmailSignIn()?.email == "bob@example.com")

        await #expect(throws: LatchError.noPendingEmailSignIn) {
            try await harness.client.completeEmailSignIn(email: "ada@example.com", code: mail.code)
        }
        #expect(harness.server.count("/v1/signin/email/verify") == 0, "nothing sent for an address not asked for")
        await #expect(throws: LatchError.invalidToken, "ada's link is bound to the secret that was replaced") {
            try await harness.client.handle(try link(mail))
        }
        #expect(harness.store.loadPendingEmailSignIn()?.email == "bob@example.com", "another device's link: kept")
    }

    @Test func withoutAPendingAttemptNothingIsSent() async throws {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.noPendingEmailSignIn) {
            try await harness.client.completeEmailSignIn(token: "signin-token-1")
        }
        await #expect(throws: LatchError.noPendingEmailSignIn) {
            try await harness.client.completeEmailSignIn(email: "ada@example.com", code: "31415901")
        }
        await #expect(throws: LatchError.noPendingEmailSignIn) {
            try await harness.client.handle(try #require(Self.parser.parse("myapp://signIn?token=x").route))
        }
        #expect(harness.server.allRequests.isEmpty)
        #expect(await harness.client.currentUser == nil)
    }

    @Test func thePendingAttemptSurvivesASignOutAndARelaunch() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latch-client-\(UUID().uuidString)/store")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let clock = TestClock()
        let server = FakeLatchServer(clock: clock)
        let first = LatchClient(baseURL: Harness.baseURL, store: FileSessionStore(directory: directory),
                                transport: server, now: clock.function)
        try await first.signIn(email: "ada@example.com", password: FakeLatchServer.password)
        try await first.requestEmailSignIn(email: "ada@example.com")
        try await first.signOut()

        clock.advance(by: 60)
        let relaunched = LatchClient(baseURL: Harness.baseURL, store: FileSessionStore(directory: directory),
                                     transport: server, now: clock.function)
        #expect(await relaunched.currentUser == nil)
        #expect(await relaunched.pendingEmailSignInAddress == "ada@example.com")
        let mail = try #require(server.signInMails.first)
        let url = try #require(URL(string: "myapp://signIn?token=\(mail.token)"))
        let result = try await relaunched.completeEmailSignIn(url: url, parser: Self.parser)
        #expect(result == .signedIn(server.user(email: "ada@example.com")))
        #expect(await relaunched.currentUser == result.user)
        #expect(try FileSessionStore(directory: directory).loadPendingEmailSignIn() == nil)
        let file = directory.appendingPathComponent("pending-email-signin.json")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test(arguments: [
        (409, "token_used", LatchError.tokenUsed, true),
        (400, "token_expired", .tokenExpired, true),
        (409, "token_superseded", .tokenSuperseded, false),
        (400, "invalid_token", .invalidToken, false),
        (400, "invalid_code", .invalidCode, false),
        (403, "user_disabled", .userDisabled, false),
        (429, "rate_limited", .rateLimited(retryAfter: nil), false),
        (503, "overloaded", .overloaded(retryAfter: nil), false),
    ] as [(Int, String, LatchError, Bool)])
    func refusalsThatMeanTheMailCanNoLongerSignInEndTheAttempt(status: Int, code: String, expected: LatchError,
                                                                 drops: Bool) async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        harness.server.state.withLock { $0.scripted["/v1/signin/email/verify"] = FakeLatchServer.error(status, code) }
        await #expect(throws: expected) { try await harness.client.completeEmailSignIn(token: "signin-token-1") }
        #expect((harness.store.loadPendingEmailSignIn() == nil) == drops)
        #expect(await harness.client.currentUser == nil)
    }

    @Test func anOlderMailSupersededByANewerOneLeavesTheAttemptForTheNewer() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        harness.clock.advance(by: 61)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mails = harness.server.signInMails
        #expect(mails.count == 2 && mails[0].superseded)

        await #expect(throws: LatchError.tokenSuperseded) { try await harness.client.handle(try link(mails[0])) }
        let outcome = try await harness.client.handle(try link(mails[1]))
        #expect(outcome == .signedIn(harness.server.user(email: "ada@example.com")),
                "the newer mail, bound to the same secret, still signs in")
    }

    @Test func aRequestMadeWhileALinkIsRedeemedIsNotDroppedWithIt() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        let mail = try #require(harness.server.signInMails.first)
        harness.server.emailSignInGate.close()
        let route = try link(mail)
        let redemption = Task { try await harness.client.handle(route) }
        #expect(await eventually { harness.server.emailSignInGate.waitingCount == 1 })
        try await harness.client.requestEmailSignIn(email: "bob@example.com")
        harness.server.emailSignInGate.open()
        #expect(try await redemption.value == .signedIn(harness.server.user(email: "ada@example.com")))
        #expect(harness.store.loadPendingEmailSignIn()?.email == "bob@example.com")
    }

    @Test func anAttemptThatCannotBeSavedSendsNothing() async {
        struct Failure: Error {}
        final class ReadOnlyStore: SessionStore {
            func loadSession() -> Session? { nil }
            func saveSession(_ session: Session) {}
            func clearSession() {}
            func loadDeviceToken() -> String? { nil }
            func saveDeviceToken(_ token: String) {}
            func loadPendingEmailSignIn() -> PendingEmailSignIn? { nil }
            func savePendingEmailSignIn(_ attempt: PendingEmailSignIn) throws { throw Failure() }
            func clearPendingEmailSignIn() {}
        }
        let server = FakeLatchServer(clock: TestClock())
        let client = LatchClient(baseURL: Harness.baseURL, store: ReadOnlyStore(), transport: server)
        await #expect {
            try await client.requestEmailSignIn(email: "ada@example.com")
        } throws: { error in
            if case .storage = error as? LatchError { true } else { false }
        }
        #expect(server.allRequests.isEmpty, "no mail whose link could never complete")
    }

    @Test func theServerWithoutSignInByMailSaysNotFound() async {
        let harness = Harness(signedIn: false)
        harness.server.state.withLock { $0.scripted["/v1/signin/email"] = FakeLatchServer.error(404, "not_found") }
        await #expect(throws: LatchError.rejectedRequest(code: "not_found")) {
            try await harness.client.requestEmailSignIn(email: "ada@example.com")
        }
    }

    @Test(arguments: ["https://links.example.com/confirmAuth?token=signin-token-1", "myapp://home/profile",
                      "https://evil.example.com/signIn?token=signin-token-1", "myapp://signIn"])
    func aURLThatIsNotASignInLinkSendsNothing(link: String) async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.requestEmailSignIn(email: "ada@example.com")
        await #expect(throws: LatchError.notASignInLink) {
            try await harness.client.completeEmailSignIn(url: try #require(URL(string: link)), parser: Self.parser)
        }
        #expect(harness.server.count("/v1/signin/email/verify") == 0)
        #expect(harness.store.loadPendingEmailSignIn() != nil)
    }

    @Test func theClientsOwnCasesHaveCodesNoServerSends() {
        #expect(LatchError.noPendingEmailSignIn.code == "no_pending_email_sign_in")
        #expect(LatchError.notASignInLink.code == "not_a_sign_in_link")
        #expect(!LatchError.noPendingEmailSignIn.endsSession && !LatchError.notASignInLink.endsSession)
    }
}
