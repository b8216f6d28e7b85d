import AuthCore
import Testing

@Suite struct AuthErrorTests {
    @Test func codesAreStableSnakeCase() {
        let cases: [(AuthError, String)] = [
            (.invalidEmail, "invalid_email"), (.weakPassword(.passwordTooLong), "weak_password"),
            (.invalidCredentials, "invalid_credentials"), (.emailNotConfirmed, "email_not_confirmed"),
            (.userDisabled, "user_disabled"), (.invalidToken, "invalid_token"), (.tokenExpired, "token_expired"),
            (.tokenUsed, "token_used"), (.rateLimited(retryAfter: 5), "rate_limited"),
            (.invalidSession, "invalid_session"), (.sessionExpired, "session_expired"),
            (.refreshTokenReused, "refresh_token_reused"),
        ]
        for (error, code) in cases {
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
        }
        #expect(AuthError.rateLimited(retryAfter: 5).retryAfter == 5)
        #expect(AuthError.invalidToken.retryAfter == nil && AuthError.invalidToken.reason == nil)
    }

    @Test func retryAfterIsRoundedUpToWholeSeconds() throws {
        let h = Harness { $0.rateLimits.resendPerIP = RateLimitRule(limit: 1, window: 10) }
        h.clock.advance(by: 0.4)
        try h.resendConfirmation("a@example.com", ip: "192.0.2.1")
        // 9.6 s remain in the window: a client waiting 9 s would be refused again.
        #expect(throws: AuthError.rateLimited(retryAfter: 10)) {
            try h.resendConfirmation("b@example.com", ip: "192.0.2.1")
        }
    }
}
