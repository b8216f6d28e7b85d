import DeepLinkRouting
import Foundation
import LatchClient
import TestKit
import Testing

/// An invited person's app through the real latchd: the invitation's link from the mail is handed back by
/// `LatchClient.handle`, and `acceptInvite` with the chosen password signs in, which the navigation follows.
@MainActor
@Suite(.serialized) struct ClientInvitationTests {
    @Test func theInvitationLinkLeadsToThePasswordScreenAndAcceptingSignsIn() async throws {
        let stack = try InvitationIntegrationTests.Stack()
        defer { stack.stop() }
        let client = try stack.app.latchClient(store: InMemorySessionStore(), transport: CountingTransport())
        let parser = try TestApp.appParser
        let navigation = NavigationModel(parser: parser)
        let following = Task { await navigation.follow(client) }
        defer { following.cancel() }
        #expect(await eventually { navigation.authState == .loggedOut })

        let email = MailEnvironment.recipient("client-invite")
        try stack.invite(email, locale: "de")
        let mail = try stack.invitation(to: email).mail
        let link = try #require(MailChecks.singleLink(mail))
        let route = try #require(parser.parse(link).route)
        #expect(navigation.open(url: link) == .opened(route), "a token link opens signed out")
        guard case .acceptInvite(let token) = try await client.handle(route) else {
            Issue.record("the invitation link did not ask for a password")
            return
        }
        await #expect(throws: LatchError.weakPassword(reason: .passwordTooShort)) {
            try await client.acceptInvite(token: token, password: "short")
        }
        let user = try await client.acceptInvite(token: token, password: TestApp.passphrase)
        #expect(user.email == email && user.isConfirmed && user.locale == "de")
        #expect(await eventually { navigation.authState == .loggedIn })
        #expect(try await client.me() == user)
        await #expect(throws: LatchError.tokenUsed) {
            try await client.acceptInvite(token: token, password: TestApp.passphrase)
        }
    }
}
