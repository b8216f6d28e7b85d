import AuthCore
import Foundation
import Testing

@Suite struct RateLimitRuleTests {
    let rule = RateLimitRule(limit: 3, window: 60)

    @Test func windowsAreAlignedToTheEpoch() {
        let now = Date(timeIntervalSince1970: 1_000_000_030)
        #expect(rule.windowStart(containing: now) == Date(timeIntervalSince1970: 1_000_000_020))
    }

    @Test func allowsUpToTheLimitThenAnswersTheRestOfTheWindow() {
        let start = Date(timeIntervalSince1970: 1_000_000_020)
        let now = start.addingTimeInterval(15)
        #expect(rule.decide(count: 3, windowStart: start, now: now) == .allowed)
        #expect(rule.decide(count: 4, windowStart: start, now: now) == .limited(retryAfter: 45))
    }
}
