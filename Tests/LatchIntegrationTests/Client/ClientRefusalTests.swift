import Foundation
import LatchClient
import Testing

/// The real latchd's refusals reach the app as their `LatchError` cases, `Retry-After` included.
@Suite struct ClientRefusalTests {
    @Test func signUpAndSignInRefusals() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let client = try app.latchClient()
        await #expect(throws: LatchError.weakPassword(reason: .passwordTooShort)) {
            try await client.signUp(email: "short@example.test", password: "short")
        }
        await #expect(throws: LatchError.invalidEmail) {
            try await client.signUp(email: "not an address", password: TestApp.passphrase)
        }
        try await client.signUp(email: "early@example.test", password: TestApp.passphrase)
        await #expect(throws: LatchError.emailNotConfirmed) {
            try await client.signIn(email: "early@example.test", password: TestApp.passphrase)
        }
        await #expect(throws: LatchError.invalidCredentials) {
            try await client.signIn(email: "early@example.test", password: "not the passphrase at all")
        }
        await #expect(throws: LatchError.invalidToken) {
            try await client.confirm(token: String(repeating: "A", count: 43))
        }
        #expect(await client.currentUser == nil)
    }

    @Test func aSignInOverTheLimitSurfacesRetryAfter() async throws {
        let app = try TestApp(environment: ["LATCH_RATE_SIGNIN_EMAIL": "2/1d"])
        defer { app.stop() }
        let client = try app.latchClient()
        for _ in 0..<2 {
            await #expect(throws: LatchError.invalidCredentials) {
                try await client.signIn(email: "limited@example.test", password: "a wrong passphrase")
            }
        }
        try await expectRateLimited { () async throws(LatchError) in
            try await client.signIn(email: "limited@example.test", password: "a wrong passphrase")
        }
    }

    @Test func theMailingCallsOverTheirLimitsSurfaceRetryAfter() async throws {
        let app = try TestApp(environment: [
            "LATCH_RATE_SIGNUP_EMAIL": "1/1d", "LATCH_RATE_RESEND_EMAIL": "1/1d", "LATCH_RATE_FORGOT_EMAIL": "1/1d",
        ])
        defer { app.stop() }
        let client = try app.latchClient()
        let email = "mailing@example.test"
        try await client.signUp(email: email, password: TestApp.passphrase)
        try await expectRateLimited { () async throws(LatchError) in
            try await client.signUp(email: email, password: TestApp.passphrase)
        }
        try await client.resendConfirmation(email: email)
        try await expectRateLimited { () async throws(LatchError) in try await client.resendConfirmation(email: email) }
        try await client.forgotPassword(email: email)
        try await expectRateLimited { () async throws(LatchError) in try await client.forgotPassword(email: email) }
    }

    @Test func theDeviceTokenKeepsTheOwnerInWhileOthersAreLockedOut() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "owner@example.test"
        let owner = try app.latchClient()
        try await app.signUpAndConfirm(email, with: owner)
        try await owner.signIn(email: email, password: TestApp.passphrase)  // this device is now trusted
        try await owner.signOut()
        let stranger = try app.latchClient()
        for _ in 0..<5 {
            await #expect(throws: LatchError.invalidCredentials) {
                try await stranger.signIn(email: email, password: "somebody's guess")
            }
        }
        try await expectRateLimited { () async throws(LatchError) in
            try await stranger.signIn(email: email, password: TestApp.passphrase)
        }

        let user = try await owner.signIn(email: email, password: TestApp.passphrase).user
        #expect(user?.email == email, "the stored device token exempts the owner from the lockout")
    }

    private func expectRateLimited(_ call: () async throws(LatchError) -> Void) async throws {
        do throws(LatchError) {
            try await call()
            Issue.record("the call went through")
        } catch {
            guard case .rateLimited(let retryAfter) = error else {
                Issue.record("expected rateLimited, got \(error)")
                return
            }
            let seconds = try #require(retryAfter, "Retry-After reached the app")
            #expect(seconds >= 1)
        }
    }
}
