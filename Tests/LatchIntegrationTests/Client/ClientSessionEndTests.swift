import Foundation
import LatchClient
import Testing

/// Sessions the server ended are reported signed out, against the real latchd: a revoked family, a global
/// sign-out on another device. The device token survives both.
@Suite struct ClientSessionEndTests {
    @Test func aRefreshTokenReplayedByAThiefRevokesTheFamilyAndTheClientReportsSignedOut() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let store = InMemorySessionStore()
        let client = try app.latchClient(store: store)
        let email = "stolen@example.test"
        try await app.signUpAndConfirm(email, with: client)
        try await client.signIn(email: email, password: TestApp.passphrase)
        var changes = await client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user?.email == email)

        // The thief refreshes first with a copy of the refresh token; the client's copy is now spent.
        let stolen = try #require(store.loadSession())
        let thief = try app.refresh(stolen.refreshToken).json(SessionJSON.self)

        // The rotation ended the client's access token too: me is refused, the client refreshes with its spent
        // token, and the server revokes the family.
        await #expect(throws: LatchError.refreshTokenReused) { try await client.me() }
        #expect(await changes.next() == .signedOut)
        #expect(await client.currentUser == nil)
        #expect(store.loadSession() == nil)
        #expect(store.loadDeviceToken() != nil, "the device stays trusted for the next sign-in")
        #expect(try app.me(thief.access_token).status == 401, "the thief's session is revoked with the family")
        await #expect(throws: LatchError.notSignedIn) { try await client.me() }
    }

    @Test func aGlobalSignOutOnAnotherDeviceReportsSignedOutHere() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "two-devices@example.test"
        let phone = try app.latchClient()
        let laptop = try app.latchClient()
        try await app.signUpAndConfirm(email, with: phone)
        try await laptop.signIn(email: email, password: TestApp.passphrase)
        var phoneChanges = await phone.authStateChanges().makeAsyncIterator()
        #expect(await phoneChanges.next()?.user?.email == email)

        try await laptop.signOut(scope: .global)
        await #expect(throws: LatchError.invalidSession) { try await phone.me() }
        #expect(await phoneChanges.next() == .signedOut)
    }
}
