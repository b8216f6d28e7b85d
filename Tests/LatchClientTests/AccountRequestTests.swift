import Foundation
import LatchClient
import Testing

/// The account-management calls: what goes over the wire, and what each does to the stored session.
@Suite struct AccountRequestTests {
    static let password = "correct horse battery staple"

    @Test func signingOutOthersKeepsThisDeviceSignedIn() async throws {
        let harness = Harness()
        try await harness.client.signOut(scope: .others)
        #expect(harness.server.requests("/v1/signout").first?.fields as? [String: String] == ["scope": "others"])
        #expect(harness.store.loadSession() != nil)
        _ = try await harness.client.me()
    }

    @Test func changePasswordSendsBothPasswordsWithTheBearerAndStaysSignedIn() async throws {
        let harness = Harness()
        try await harness.client.changePassword(current: Self.password, new: "a brand new passphrase")
        let request = try #require(harness.server.requests("/v1/password/change").first)
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(request.fields as? [String: String]
                == ["current_password": Self.password, "new_password": "a brand new passphrase"])
        #expect(harness.store.loadSession() != nil)

        await #expect(throws: LatchError.invalidCredentials) {
            try await harness.client.changePassword(current: "wrong guess", new: "a brand new passphrase")
        }
        #expect(harness.store.loadSession() != nil, "a wrong password is no reason to sign out")
    }

    @Test func changeEmailThenConfirmItUpdatesTheStoredUser() async throws {
        let harness = Harness()
        try await harness.client.changeEmail(to: "ada.new@example.com", password: Self.password)
        #expect(harness.server.requests("/v1/email/change").first?.fields as? [String: String]
                == ["new_email": "ada.new@example.com", "password": Self.password])

        let user = try await harness.client.confirmEmailChange(token: "change-token")
        #expect(user.email == "ada.new@example.com")
        #expect(harness.store.loadSession()?.user.email == "ada.new@example.com")
        let confirm = try #require(harness.server.requests("/v1/email/change/confirm").first)
        #expect(confirm.headers["Authorization"] == nil)
        #expect(confirm.fields as? [String: String] == ["token": "change-token"])
    }

    @Test func theCodeFormSendsTheNewAddress() async throws {
        let harness = Harness(signedIn: false)
        let user = try await harness.client.confirmEmailChange(newEmail: "ada.new@example.com", code: "12345678")
        #expect(user.email == "ada.new@example.com")
        #expect(harness.server.requests("/v1/email/change/confirm").first?.fields as? [String: String]
                == ["email": "ada.new@example.com", "code": "12345678"])
        await #expect(throws: LatchError.emailTaken) { try await harness.client.confirmEmailChange(token: "taken-token") }
    }

    @Test func acceptingAnInvitationSendsTheTokenOrCodeWithThePasswordAndSignsIn() async throws {
        let harness = Harness(signedIn: false)
        let user = try await harness.client.acceptInvite(token: "invite-token", password: "a first passphrase")
        #expect(user.email == "ada@example.com")
        #expect(harness.store.loadSession()?.user.email == "ada@example.com", "the answer is a session")
        #expect(harness.server.requests("/v1/invite/accept").first?.fields as? [String: String]
                == ["token": "invite-token", "password": "a first passphrase"])

        let other = Harness(signedIn: false)
        _ = try await other.client.acceptInvite(email: " ada@example.com ", code: "12345678", password: "a first passphrase")
        #expect(other.server.requests("/v1/invite/accept").first?.fields as? [String: String]
                == ["email": "ada@example.com", "code": "12345678", "password": "a first passphrase"])
        #expect(other.store.loadSession() != nil)
    }

    @Test func aRefusedInvitationTellsWhyAndSignsNobodyIn() async throws {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.tokenUsed) {
            try await harness.client.acceptInvite(token: "used-token", password: "a first passphrase")
        }
        await #expect(throws: LatchError.invalidToken) {
            try await harness.client.acceptInvite(token: "unknown", password: "a first passphrase")
        }
        await #expect(throws: LatchError.weakPassword(reason: nil)) {
            try await harness.client.acceptInvite(token: "invite-token", password: "short")
        }
        #expect(harness.store.loadSession() == nil)
    }

    @Test func sessionsAreListedAndEndedByID() async throws {
        let harness = Harness()
        let sessions = try await harness.client.sessions()
        #expect(sessions.map(\.current) == [true, false])
        #expect(sessions.first?.userAgent == "ThisApp/1.0")
        #expect(sessions.last?.userAgent == nil)
        #expect(sessions.map(\.aal) == [.aal1, nil], "an entry without aal still lists")

        try await harness.client.revokeSession(try #require(sessions.last))
        let request = try #require(harness.server.allRequests.last)
        #expect(request.method == "DELETE")
        #expect(request.url.path == "/v1/sessions/" + sessions[1].id.uuidString.lowercased())
        #expect(request.body == nil)
        #expect(harness.store.loadSession() != nil)

        try await harness.client.revokeSession(try #require(sessions.first))
        #expect(harness.store.loadSession() == nil, "ending this device's session signs it out")
    }

    @Test func anUnknownSessionIsNotFound() async throws {
        let harness = Harness()
        let stranger = SessionInfo(id: UUID(), createdAt: Date(), lastUsedAt: Date(), userAgent: nil, ip: nil,
                                   current: false)
        await #expect(throws: LatchError.sessionNotFound) { try await harness.client.revokeSession(stranger) }
        #expect(harness.store.loadSession() != nil)
    }

    @Test func aResetSendsTheSecondFactorsCodeOnlyWhenGiven() async throws {
        let harness = Harness(signedIn: false)
        let done = FakeLatchServer.json(200, ["status": "password_reset", "user": [
            "id": FakeLatchServer.userID.uuidString, "email": "ada@example.com", "confirmed_at": NSNull(),
            "created_at": "2024-01-01T00:00:00Z",
        ] as [String: Any]])
        harness.server.state.withLock { $0.scripted["/v1/password/reset"] = done }
        try await harness.client.resetPassword(token: "reset-token", newPassword: "a new passphrase")
        try await harness.client.resetPassword(token: "reset-token", newPassword: "a new passphrase",
                                               mfaCode: "123456")
        try await harness.client.resetPassword(email: " ada@example.com", code: "12345678",
                                               newPassword: "a new passphrase", recoveryCode: "ABCD-EFGH-JKMN-PQRS")
        #expect(harness.server.requests("/v1/password/reset").map { $0.fields as? [String: String] } == [
            ["token": "reset-token", "password": "a new passphrase"],
            ["token": "reset-token", "password": "a new passphrase", "mfa_code": "123456"],
            ["email": "ada@example.com", "code": "12345678", "password": "a new passphrase",
             "recovery_code": "ABCD-EFGH-JKMN-PQRS"],
        ])

        for (code, expected) in [("mfa_required", LatchError.mfaRequired), ("invalid_mfa_code", .invalidMFACode)] {
            harness.server.state.withLock { $0.scripted["/v1/password/reset"] = FakeLatchServer.error(400, code) }
            await #expect(throws: expected) {
                try await harness.client.resetPassword(token: "reset-token", newPassword: "a new passphrase")
            }
        }
    }

    @Test func deletingTheAccountNeedsThePasswordThenSignsOut() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.invalidCredentials) {
            try await harness.client.deleteAccount(password: "wrong guess")
        }
        #expect(harness.store.loadSession() != nil)
        try await harness.client.deleteAccount(password: Self.password)
        let request = try #require(harness.server.requests("/v1/me").last)
        #expect(request.method == "DELETE")
        #expect(request.fields as? [String: String] == ["password": Self.password])
        #expect(harness.store.loadSession() == nil)
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.me() }
    }
}
