import AuthCore
import AuthCoreTesting
import Foundation
import Testing

@Suite struct SessionLifetimeTests {
    @Test func refreshingCannotCarryASessionPastItsAbsoluteLifetime() throws {
        let h = Harness { $0.sessionMaxAge = 40 * 86400 }
        var session = try h.confirmedUser()
        let start = h.clock.now()
        #expect(session.refreshTokenExpiresAt == start.addingTimeInterval(30 * 86400))

        h.clock.advance(by: 20 * 86400)
        session = try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil)
        // 30 more days would pass day 40: capped at the session's end of life.
        #expect(session.refreshTokenExpiresAt == start.addingTimeInterval(40 * 86400))

        h.clock.advance(by: 19 * 86400)
        session = try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil)
        #expect(session.accessTokenExpiresAt <= start.addingTimeInterval(40 * 86400))

        h.clock.advance(by: 1 * 86400)
        #expect(throws: AuthError.sessionExpired) {
            try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil)
        }
    }

    @Test func theMaximumAgeIsValidated() {
        var configuration = AuthConfiguration(deepLinks: Harness.deepLinks)
        configuration.sessionMaxAge = 60
        #expect(configuration.problems == ["session max age must not be shorter than access token TTL"])
    }
}
