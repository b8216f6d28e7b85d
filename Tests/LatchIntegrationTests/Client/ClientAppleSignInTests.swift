import Foundation
import LatchClient
import LatchTestSupport
import Testing
import TestKit

/// LatchClient's Sign in with Apple against the real latchd and a local Apple: the nonce it asks for and hashes is
/// what the token must carry, the session it stores works, and the server's refusals arrive as typed errors.
@Suite(.serialized) struct ClientAppleSignInTests {
    /// On an executor of its own: a nonce lives five minutes, and on the suite's busy cooperative pool the step from
    /// asking for it to using it once took longer than that.
    @Test func theClientSignsInWithAppleAndListsTheIdentity() async throws {
        try await withTaskExecutorPreference(DedicatedExecutor(label: "client-apple")) {
            try await signInWithAppleAndListTheIdentity()
        }
    }

    private func signInWithAppleAndListTheIdentity() async throws {
        let issuer = try FakeAppleIssuer()
        defer { issuer.stop() }
        let app = try TestApp.appleApp(issuer)
        defer { app.stop() }
        let client = try app.latchClient()

        let nonce = try await client.appleSignInNonce()
        // Apple puts what the app passed as the request's nonce (the client's hash) into the token.
        let token = try issuer.mint(claims: ["nonce": nonce.hashedNonce, "email": "gia@example.test"])
        let result = try await client.signInWithApple(idToken: token, nonce: nonce, givenName: "Gia")
        guard case .signedIn(let user) = result else { Issue.record("not signed in: \(result)"); return }
        #expect(user.email == "gia@example.test")
        #expect(try await client.me().id == user.id)
        #expect(try await client.identities().map(\.provider) == ["apple"])

        // The same token and nonce again: the nonce is spent.
        await #expect(throws: LatchError.invalidNonce) {
            try await client.signInWithApple(idToken: token, nonce: nonce)
        }
        // A token for another app.
        let other = try await client.appleSignInNonce()
        let misdirected = try issuer.mint(claims: ["nonce": other.hashedNonce, "aud": "com.example.other"])
        await #expect(throws: LatchError.invalidIDToken) {
            try await client.signInWithApple(idToken: misdirected, nonce: other)
        }
        // An address Apple did not verify, for an Apple ID the server does not know.
        let third = try await client.appleSignInNonce()
        let unverified = try issuer.mint(claims: ["nonce": third.hashedNonce, "email_verified": false])
        await #expect(throws: LatchError.providerEmailUnverified) {
            try await client.signInWithApple(idToken: unverified, nonce: third)
        }
    }
}
