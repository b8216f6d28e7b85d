import AuthCore
import Testing

@Suite struct AuthConfigurationTests {
    @Test func defaultsMatchTheDesign() {
        let configuration = AuthConfiguration(deepLinks: Harness.deepLinks)
        #expect(configuration.confirmTokenTTL == 86_400 && configuration.resetTokenTTL == 3_600)
        #expect(configuration.accessTokenTTL == 900 && configuration.refreshTokenTTL == 2_592_000)
        #expect(configuration.lockout.threshold == 5)
        #expect(configuration.problems.isEmpty)
    }

    @Test func reportsUnusableValues() {
        var configuration = AuthConfiguration(deepLinks: Harness.deepLinks)
        configuration.resetTokenTTL = 0
        configuration.rateLimits.forgotPerIP = RateLimitRule(limit: 0, window: 60)
        configuration.lockout.cap = 1
        #expect(configuration.problems.count == 3)
    }
}
