import DeepLinkRouting
import Foundation
import LatchClient
import TestKit
import Testing

/// The app's whole path through the real latchd, PostgreSQL and SMTP: the link is read from the mail the sink
/// received, parsed by the app's `DeepLinkParser` and completed by `LatchClient.handle`, while the client's auth
/// state drives a `NavigationModel`.
@MainActor
@Suite(.serialized) struct ClientMailFlowTests {
    @Test func signUpConfirmFromTheMailMeRefreshAndSignOut() async throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let store = InMemorySessionStore()
        let transport = CountingTransport()
        let client = try app.latchClient(store: store, transport: transport)
        let parser = try TestApp.appParser
        let navigation = NavigationModel(parser: parser)
        let following = Task { await navigation.follow(client) }
        defer { following.cancel() }
        #expect(await eventually { navigation.authState == .loggedOut })

        // A link to a signed-in screen, opened before there is an account: it waits.
        let profile = try #require(URL(string: TestApp.linkBase + "/home/profile"))
        #expect(navigation.open(url: profile) == .deferred(DeepLinkRoute(.profile)))

        let email = MailEnvironment.recipient("client")
        try await client.signUp(email: email, password: TestApp.passphrase)
        navigation.awaitingConfirmation(email: email)
        #expect(navigation.root == .awaitingConfirmation(email: email))

        let mail = try #require(await Self.mailArriving(at: sink, to: email, subject: "Confirm your email"))
        let link = try #require(MailChecks.singleLink(mail))
        let route = try #require(parser.parse(link).route)
        #expect(navigation.open(url: link) == .opened(route))
        guard case .signedIn(let user) = try await client.handle(route) else {
            Issue.record("the confirm link did not sign in")
            return
        }
        #expect(user.email == email && user.isConfirmed)
        #expect(await eventually { navigation.authState == .loggedIn })
        #expect(navigation.root == .home)
        #expect(navigation.path == [.profile], "the link that waited opens once the confirmation signed in")
        await #expect(throws: LatchError.tokenUsed) { try await client.handle(route) }

        #expect(try await client.me() == user)
        let beforeRefresh = try #require(store.loadSession())
        let refreshed = try await client.refreshSession()
        #expect(refreshed.accessToken != beforeRefresh.accessToken)
        #expect(refreshed.refreshToken != beforeRefresh.refreshToken)
        #expect(store.loadSession() == refreshed)
        #expect(try app.me(beforeRefresh.accessToken).status == 401, "the rotation ended the old access token")
        #expect(try await client.me() == user)
        #expect(transport.count("/v1/token/refresh") == 1)

        try await client.signOut()
        #expect(await eventually { navigation.authState == .loggedOut })
        #expect(navigation.path.isEmpty && navigation.root == .signIn)
        #expect(store.loadSession() == nil)
        #expect(try app.me(refreshed.accessToken).status == 401, "the server ended the session")
    }

    @Test func aResetLinkFromTheMailHandsBackItsTokenAndTheNewPasswordSignsIn() async throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let client = try app.latchClient()
        let parser = try TestApp.appParser
        let email = MailEnvironment.recipient("client-reset")
        try await client.signUp(email: email, password: TestApp.passphrase)
        let confirmMail = try #require(await Self.mailArriving(at: sink, to: email, subject: "Confirm your email"))
        let confirmLink = try #require(MailChecks.singleLink(confirmMail))
        try await client.handle(try #require(parser.parse(confirmLink).route))
        var changes = await client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user?.email == email)

        try await client.forgotPassword(email: email)
        let resetMail = try #require(await Self.mailArriving(at: sink, to: email, subject: "Reset your"))
        let resetLink = try #require(MailChecks.singleLink(resetMail))
        let route = try #require(parser.parse(resetLink).route)
        guard case .resetPassword(let token) = try await client.handle(route) else {
            Issue.record("the reset link did not hand back its token")
            return
        }
        #expect(await client.currentUser?.email == email, "handing back the token changes nothing yet")

        try await client.resetPassword(token: token, newPassword: MailEnvironment.newPassword)
        #expect(await changes.next() == .signedOut, "the reset ended this device's session too")
        await #expect(throws: LatchError.invalidCredentials) {
            try await client.signIn(email: email, password: TestApp.passphrase)
        }
        #expect(try await client.signIn(email: email, password: MailEnvironment.newPassword).user?.email == email)
    }

    /// The first message to `recipient` whose subject contains `subject`, polled without blocking the actor.
    static func mailArriving(at sink: SMTPSink, to recipient: String, subject: String) async -> ReceivedMail? {
        var found: ReceivedMail?
        _ = await eventually {
            found = try? sink.messages(to: recipient).first { $0.subject?.contains(subject) == true }
            return found != nil
        }
        return found
    }
}

/// The code beside the link, typed into the app on another device than the mail.
@MainActor
@Suite(.serialized) struct ClientCodeTests {
    @Test func aCodeReadFromTheMailConfirmsAndAnotherResetsThePassword() async throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let client = try app.latchClient()
        let email = MailEnvironment.recipient("client-code")
        try await client.signUp(email: email, password: TestApp.passphrase)

        let confirmMail = try #require(await ClientMailFlowTests.mailArriving(at: sink, to: email, subject: "Confirm your email"))
        let code = try #require(confirmMail.codes.text.first)
        await #expect(throws: LatchError.invalidCode) { try await client.confirm(email: email, code: "99999999") }
        let user = try await client.confirm(email: email, code: String(code.prefix(4)) + " " + code.suffix(4))
        #expect(user.isConfirmed)

        try await client.forgotPassword(email: email)
        let resetMail = try #require(await ClientMailFlowTests.mailArriving(at: sink, to: email, subject: "Reset your"))
        let resetCode = try #require(resetMail.codes.text.first)
        await #expect(throws: LatchError.weakPassword(reason: .passwordTooShort)) {
            try await client.resetPassword(email: email, code: resetCode, newPassword: "short")
        }
        _ = try await client.resetPassword(email: email, code: resetCode, newPassword: "a new passphrase 99")
        _ = try await client.signIn(email: email, password: "a new passphrase 99")
    }
}
