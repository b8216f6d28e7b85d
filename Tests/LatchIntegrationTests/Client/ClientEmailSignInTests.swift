import AuthCore
import DeepLinkRouting
import Foundation
import LatchClient
import TestKit
import Testing

/// The app's sign-in by mail and its "confirm it's you" through the real latchd and PostgreSQL: the client makes
/// and keeps the attempt's secret, the link from the mail completes through `handle`, and a privileged call that
/// needs proof of presence succeeds after a re-authentication with the mailed code.
@Suite(.serialized) struct ClientEmailSignInTests {
    static let email = "client-by-mail@example.test"

    @Test func theMailedLinkSignsInThisClientAndAnotherClientCannotUseIt() async throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, TestApp.passphrase)
        let store = InMemorySessionStore()
        let client = try app.latchClient(store: store)
        try await client.requestEmailSignIn(email: Self.email)
        #expect(await client.pendingEmailSignInAddress == Self.email)
        let mail = try app.signInMail(to: Self.email)
        let link = try #require(URL(string: TestApp.linkBase + "/signIn?token=" + mail.token))
        let route = try #require(try TestApp.appParser.parse(link).route)

        // Another install of the app (its own store, no secret) gets the same link: it cannot sign in with it.
        let other = try app.latchClient()
        await #expect(throws: LatchError.noPendingEmailSignIn) { try await other.handle(route) }

        guard case .signedIn(let user) = try await client.handle(route) else {
            Issue.record("the sign-in link did not sign in")
            return
        }
        #expect(user.email == Self.email)
        #expect(try await client.me() == user)
        #expect(await client.pendingEmailSignInAddress == nil, "the attempt is dropped once used")
        await #expect(throws: LatchError.noPendingEmailSignIn) { try await client.handle(route) }
    }

    @Test func deletingAfterAReauthenticationWithTheMailedCode() async throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, TestApp.passphrase)
        let client = try app.latchClient()
        try await client.requestEmailSignIn(email: Self.email)
        try await client.completeEmailSignIn(email: Self.email, code: try app.signInMail(to: Self.email).code)

        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600)) { try await client.deleteAccount() }
        #expect(try await client.me().email == Self.email, "still signed in after the refusal")
        try await client.requestReauthenticationCode()
        let code = try app.mailedCode(to: Self.email, kind: .reauthenticationCode)
        let until = try await client.reauthenticate(emailCode: code)
        #expect(until > Date())
        try await client.deleteAccount()
        #expect(try app.count("SELECT count(*) FROM users") == 0)
    }
}
