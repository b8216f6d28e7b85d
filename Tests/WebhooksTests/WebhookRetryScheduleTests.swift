import Foundation
import TestKit
import Testing
import Webhooks

@Suite struct WebhookRetryScheduleTests {
    let schedule = WebhookRetrySchedule.standard
    let steps: [TimeInterval] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]

    @Test func followsTheSpecsStepsWithinTheJitterAndThenGivesUp() {
        var generator = SeededGenerator(seed: 30)
        #expect(schedule.attempts == 10)
        for (index, step) in steps.enumerated() {
            for _ in 0..<50 {
                let delay = schedule.delay(afterAttempt: index + 1, using: &generator)!
                #expect(delay >= step * 0.9 && delay <= min(step * 1.1, 86400), "after attempt \(index + 1): \(delay)")
            }
        }
        #expect(schedule.delay(afterAttempt: 10, using: &generator) == nil)
        #expect(schedule.delay(afterAttempt: 11, using: &generator) == nil)
    }

    @Test func jitterSpreadsTheWaits() {
        var generator = SeededGenerator(seed: 7)
        let delays = Set((0..<20).map { _ in schedule.delay(afterAttempt: 2, using: &generator)! })
        #expect(delays.count > 10)
    }

    @Test func retryAfterWinsOnlyWhenLongerAndIsCappedAtADay() {
        var generator = SeededGenerator(seed: 1)
        #expect(schedule.delay(afterAttempt: 1, retryAfter: 120, using: &generator) == 120)
        let short = schedule.delay(afterAttempt: 3, retryAfter: 10, using: &generator)!
        #expect(short >= 1620 && short <= 1980)
        #expect(schedule.delay(afterAttempt: 1, retryAfter: 7 * 86400, using: &generator) == 86400)
        #expect(schedule.delay(afterAttempt: 9, retryAfter: 5, using: &generator)! <= 86400)
        #expect(schedule.delay(afterAttempt: 10, retryAfter: 60, using: &generator) == nil)
    }

    @Test func parsesRetryAfterSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(WebhookRetrySchedule.retryAfter("120", now: now) == 120)
        #expect(WebhookRetrySchedule.retryAfter(" 0 ", now: now) == 0)
        #expect(WebhookRetrySchedule.retryAfter("99999999999999999999", now: now) == 86400)
        #expect(WebhookRetrySchedule.retryAfter("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == 120)
        #expect(WebhookRetrySchedule.retryAfter("Sunday, 06-Nov-94 08:50:37 GMT", now: now) == 60)
        #expect(WebhookRetrySchedule.retryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        for junk in ["", "-5", "1.5", "soon", "+30", "Sun, 06 Nov 1994"] {
            #expect(WebhookRetrySchedule.retryAfter(junk, now: now) == nil, "\(junk)")
        }
    }
}
