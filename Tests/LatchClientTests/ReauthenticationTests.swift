import Foundation
import LatchClient
import TestKit
import Testing

/// LatchClient+Reauthentication.swift: proof of presence, the access token it replaces, and the privileged
/// changes that go without the password after it.
@Suite struct ReauthenticationTests {
    static let password = FakeLatchServer.password

    @Test func thePasswordWayReplacesTheAccessTokenOfTheSameSession() async throws {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user != nil)

        let until = try await harness.client.reauthenticate(password: Self.password)
        #expect(until == harness.clock.now + 600)
        let request = try #require(harness.server.requests("/v1/reauthenticate").first)
        #expect(request.method == "POST")
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(request.fields as? [String: String] == ["password": Self.password])

        let stored = try #require(harness.store.loadSession())
        #expect(stored.accessToken == "access-1-reauthenticated-1")
        #expect(stored.accessTokenExpiresAt == harness.clock.now + 900)
        #expect(stored.refreshToken == "refresh-1", "the same session: its refresh token stays")
        #expect(stored.refreshTokenExpiresAt == harness.server.session(1).refreshTokenExpiresAt)
        #expect(stored.user == harness.server.user(email: "ada@example.com"))
        #expect(try await harness.client.accessToken() == "access-1-reauthenticated-1")
        _ = try await harness.client.me()
        #expect(harness.server.requests("/v1/me").map { $0.headers["Authorization"] }
                == ["Bearer access-1-reauthenticated-1"], "the old token is void at the server; the new one went")
        #expect(harness.server.count("/v1/token/refresh") == 0)

        try await harness.client.signOut()
        #expect(await changes.next() == .signedOut, "the re-authentication reported no change of its own")
    }

    @Test func aWrongPasswordIsRefusedAndTheSessionStays() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.invalidCredentials) {
            try await harness.client.reauthenticate(password: "wrong guess")
        }
        #expect(harness.store.loadSession() == harness.server.session(1))
        #expect(await harness.client.currentUser != nil)
        #expect(harness.server.count("/v1/token/refresh") == 0, "a refused password is no reason to refresh")
    }

    @Test func theMailedCodeWay() async throws {
        let harness = Harness()
        try await harness.client.requestReauthenticationCode()
        let ask = try #require(harness.server.requests("/v1/reauthenticate/email").first)
        #expect(ask.method == "POST")
        #expect(ask.headers["Authorization"] == "Bearer access-1")
        #expect(ask.body == nil && ask.headers["Content-Type"] == nil, "no body at all")

        await #expect(throws: LatchError.invalidCode) { try await harness.client.reauthenticate(emailCode: "00000000") }
        #expect(harness.store.loadSession()?.accessToken == "access-1")
        let until = try await harness.client.reauthenticate(emailCode: FakeLatchServer.reauthenticationCode)
        #expect(until == harness.clock.now + 600)
        #expect(harness.server.requests("/v1/reauthenticate").map { $0.fields as? [String: String] }
                == [["email_code": "00000000"], ["email_code": FakeLatchServer.reauthenticationCode]])
        #expect(harness.store.loadSession()?.accessToken == "access-1-reauthenticated-1")
    }

    @Test func anAccessTokenAboutToExpireIsRefreshedFirstAndTheAnswerReplacesTheFreshOne() async throws {
        let harness = Harness(accessLifetime: 30)
        try await harness.client.reauthenticate(password: Self.password)
        #expect(harness.server.count("/v1/token/refresh") == 1)
        #expect(harness.server.requests("/v1/reauthenticate").first?.headers["Authorization"] == "Bearer access-2")
        let stored = try #require(harness.store.loadSession())
        #expect(stored.accessToken == "access-2-reauthenticated-1")
        #expect(stored.refreshToken == "refresh-2")
    }

    @Test func privilegedChangesWithoutThePasswordNeedARecentReauthentication() async throws {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user != nil)

        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600)) {
            try await harness.client.changeEmail(to: "ada.new@example.com")
        }
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600)) {
            try await harness.client.changePassword(new: "a brand new passphrase")
        }
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600)) {
            try await harness.client.deleteAccount()
        }
        #expect(harness.store.loadSession() == harness.server.session(1), "not a sign-out")
        #expect(harness.server.count("/v1/token/refresh") == 0, "a 401 that is not about the token is not refreshed")

        try await harness.client.reauthenticate(password: Self.password)
        try await harness.client.changeEmail(to: " ada.new@example.com")
        try await harness.client.changePassword(new: "a brand new passphrase")
        #expect(harness.server.requests("/v1/email/change").map { $0.fields as? [String: String] }
                == [["new_email": "ada.new@example.com"], ["new_email": "ada.new@example.com"]], "no password key")
        #expect(harness.server.requests("/v1/password/change").map { $0.fields as? [String: String] }
                == [["new_password": "a brand new passphrase"], ["new_password": "a brand new passphrase"]])
        #expect(harness.server.requests("/v1/email/change").last?.headers["Authorization"]
                == "Bearer access-1-reauthenticated-1")

        harness.clock.advance(by: 601)
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600)) {
            try await harness.client.deleteAccount()
        }
        try await harness.client.requestReauthenticationCode()
        try await harness.client.reauthenticate(emailCode: FakeLatchServer.reauthenticationCode)
        try await harness.client.deleteAccount()
        let deletion = try #require(harness.server.requests("/v1/me").last)
        #expect(deletion.method == "DELETE")
        #expect(deletion.body.map { String(decoding: $0, as: UTF8.self) } == "{}")
        #expect(harness.store.loadSession() == nil)
        #expect(await changes.next() == .signedOut, "the first sign-out reported is the deletion's")
    }

    @Test func thePasswordStillWorksWithoutAReauthentication() async throws {
        let harness = Harness()
        try await harness.client.changeEmail(to: "ada.new@example.com", password: Self.password)
        try await harness.client.changePassword(current: Self.password, new: "a brand new passphrase")
        #expect(harness.server.requests("/v1/password/change").first?.fields as? [String: String]
                == ["current_password": Self.password, "new_password": "a brand new passphrase"])
        try await harness.client.deleteAccount(password: Self.password)
        #expect(harness.server.requests("/v1/me").first?.fields as? [String: String] == ["password": Self.password])
        #expect(harness.server.count("/v1/reauthenticate") == 0)
    }

    @Test func anAccountWithASecondFactorNeedsItsCodeAndThePasswordIsNotEnough() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        let aal2 = LatchError.reauthenticationRequired(maxAge: 600, acrValues: "aal2")
        await #expect(throws: aal2) { try await harness.client.changeEmail(to: "ada.new@example.com") }
        await #expect(throws: aal2) {
            try await harness.client.changePassword(current: Self.password, new: "a brand new passphrase")
        }
        try await harness.client.reauthenticate(password: Self.password)
        await #expect(throws: aal2, "a password re-authentication is not the second factor") {
            try await harness.client.deleteAccount()
        }

        await #expect(throws: LatchError.invalidMFACode) { try await harness.client.reauthenticate(code: "000000") }
        #expect(harness.store.loadSession()?.accessToken == "access-1-reauthenticated-1",
                "a wrong code changes nothing")
        let until = try await harness.client.reauthenticate(code: FakeLatchServer.totpCode)
        #expect(until == harness.clock.now + 600)
        #expect(harness.server.requests("/v1/reauthenticate").map { $0.fields as? [String: String] }
                == [["password": Self.password], ["code": "000000"], ["code": FakeLatchServer.totpCode]])
        #expect(harness.store.loadSession()?.accessToken == "access-1-reauthenticated-2")
        #expect(harness.store.loadSession()?.refreshToken == "refresh-1", "the same session")
        try await harness.client.changeEmail(to: "ada.new@example.com")
        #expect(harness.server.requests("/v1/email/change").last?.headers["Authorization"]
                == "Bearer access-1-reauthenticated-2")
        await #expect(throws: LatchError.invalidCredentials, "a password sent is still checked") {
            try await harness.client.changePassword(current: "wrong guess", new: "a brand new passphrase")
        }
        #expect(await harness.client.currentUser != nil)
    }

    @Test func aRecoveryCodeProvesPresenceOnce() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        let code = FakeLatchServer.initialRecoveryCodes[3]
        try await harness.client.reauthenticate(recoveryCode: code)
        #expect(harness.server.requests("/v1/reauthenticate").first?.fields as? [String: String]
                == ["recovery_code": code])
        #expect(harness.store.loadSession()?.accessToken == "access-1-reauthenticated-1")
        try await harness.client.deleteAccount()
        #expect(harness.store.loadSession() == nil)

        let again = Harness()
        again.server.enableSecondFactor()
        try await again.client.reauthenticate(recoveryCode: code)
        await #expect(throws: LatchError.invalidMFACode, "spent") {
            try await again.client.reauthenticate(recoveryCode: code)
        }
        #expect(await again.client.currentUser != nil)
    }

    @Test func aSecondFactorProofWithoutAFactorIsRefusedAndEndsNothing() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.mfaNotEnabled) { try await harness.client.reauthenticate(code: "123456") }
        await #expect(throws: LatchError.mfaNotEnabled) {
            try await harness.client.reauthenticate(recoveryCode: "ABCD-EFGH-JKMN-PQRS")
        }
        #expect(harness.store.loadSession() == harness.server.session(1))
        #expect(harness.server.count("/v1/token/refresh") == 0)
    }

    @Test func aReauthenticationAnsweredAfterASignOutDoesNotSignBackIn() async throws {
        let harness = Harness()
        harness.server.reauthenticationGate.close()
        let reauthentication = Task { try await harness.client.reauthenticate(password: Self.password) }
        #expect(await eventually { harness.server.reauthenticationGate.waitingCount == 1 })
        try await harness.client.signOut()  // while the answer is held back: the session ends here first
        harness.server.reauthenticationGate.open()
        await #expect(throws: LatchError.notSignedIn) { try await reauthentication.value }
        #expect(await harness.client.currentUser == nil)
        #expect(harness.store.loadSession() == nil)
    }
}
