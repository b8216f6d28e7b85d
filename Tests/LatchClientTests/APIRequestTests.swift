import Foundation
import LatchClient
import Testing

/// Requests/: what goes over the wire for each call: method, path under the base URL, JSON body, bearer.
@Suite struct APIRequestTests {
    @Test func signUpPostsTheCredentialsAsJSONWithoutABearer() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.signUp(email: "ada@example.com", password: "correct horse battery staple")
        let request = try #require(harness.server.allRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://auth.example.test/v1/signup")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.fields as? [String: String]
                == ["email": "ada@example.com", "password": "correct horse battery staple"])
    }

    @Test func typedAddressesLoseTheSpaceAKeyboardLeaves() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.forgotPassword(email: " ada@example.com\n")
        try await harness.client.signIn(email: "ada@example.com ", password: "correct horse battery staple")
        #expect(harness.server.requests("/v1/password/forgot").first?.fields as? [String: String]
                == ["email": "ada@example.com"])
        #expect(harness.server.requests("/v1/signin").first?.fields["email"] as? String == "ada@example.com")
    }

    @Test func theMailingCallsPostTheAddressOnly() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.resendConfirmation(email: "ada@example.com")
        try await harness.client.forgotPassword(email: "ada@example.com")
        #expect(harness.server.allRequests.map(\.url.path) == ["/v1/confirm/resend", "/v1/password/forgot"])
        #expect(harness.server.allRequests.allSatisfy {
            $0.fields as? [String: String] == ["email": "ada@example.com"]
        })
    }

    @Test func meIsAGetWithTheBearerAndNoBody() async throws {
        let harness = Harness()
        let user = try await harness.client.me()
        #expect(user.email == "ada@example.com")
        let request = try #require(harness.server.requests("/v1/me").first)
        #expect(request.method == "GET")
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(request.body == nil)
    }

    @Test func aBaseURLWithAPathPrefixKeepsIt() async throws {
        let server = FakeLatchServer(clock: TestClock())
        server.state.withLock { $0.scripted["/auth/v1/password/forgot"] = TransportResponse(status: 202) }
        for base in ["https://example.test/auth", "https://example.test/auth/"] {
            let client = LatchClient(baseURL: try #require(URL(string: base)), transport: server)
            try await client.forgotPassword(email: "ada@example.com")
        }
        #expect(server.allRequests.map(\.url.absoluteString)
                == Array(repeating: "https://example.test/auth/v1/password/forgot", count: 2))
    }

    @Test func signInSendsTheStoredDeviceTokenAndKeepsTheNewOne() async throws {
        let harness = Harness(signedIn: false)
        try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
        #expect(harness.server.requests("/v1/signin")[0].fields["device_token"] == nil, "none yet: none sent")
        #expect(harness.store.loadDeviceToken() == "device-1")

        harness.server.state.withLock { $0.deviceToken = "device-2" }
        try await harness.client.signOut()
        try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
        #expect(harness.server.requests("/v1/signin")[1].fields["device_token"] as? String == "device-1",
                "the token survived the sign-out and went with the next sign-in")
        #expect(harness.store.loadDeviceToken() == "device-2")
    }

    @Test func signOutSendsTheScopeEndsTheSessionAndKeepsTheDeviceToken() async throws {
        for scope in [SignOutScope.local, .global] {
            let harness = Harness(deviceToken: "device-1")
            try await harness.client.signOut(scope: scope)
            let request = try #require(harness.server.requests("/v1/signout").first)
            #expect(request.fields as? [String: String] == ["scope": scope.rawValue])
            #expect(request.headers["Authorization"] == "Bearer access-1")
            #expect(harness.store.loadSession() == nil)
            #expect(harness.store.loadDeviceToken() == "device-1")
            await #expect(throws: LatchError.notSignedIn) { try await harness.client.me() }
        }
    }

    @Test func signOutOfASessionTheServerEndedAlreadyIsNoError() async throws {
        let harness = Harness()
        harness.server.state.withLock { $0.revoked = true }
        try await harness.client.signOut()
        #expect(harness.store.loadSession() == nil)
        #expect(harness.server.count("/v1/token/refresh") == 1, "the 401 was checked with a refresh, which failed")
    }

    @Test func signOutThatCannotReachTheServerStillSignsOutHereAndSaysSo() async throws {
        let harness = Harness()
        harness.server.state.withLock {
            $0.scripted["/v1/signout"] = FakeLatchServer.error(503, "overloaded", retryAfter: 2)
        }
        await #expect(throws: LatchError.overloaded(retryAfter: 2)) { try await harness.client.signOut(scope: .global) }
        #expect(harness.store.loadSession() == nil)
        #expect(await harness.client.currentUser == nil)
    }

    @Test func signedOutCallsThatNeedASessionSendNothing() async {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.me() }
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.accessToken() }
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.refreshSession() }
        try? await harness.client.signOut()
        #expect(harness.server.allRequests.isEmpty)
    }
}
