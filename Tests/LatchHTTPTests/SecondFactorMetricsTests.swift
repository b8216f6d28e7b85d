import AuthCore
import Testing
@testable import LatchHTTP

/// `/metrics` counts second-factor sign-ins and their refusals by code, so guessing codes shows.
@Suite struct SecondFactorMetricsTests {
    @Test func signInsAndFailuresAreCounted() {
        let metrics = SecondFactorMetrics()
        metrics.recordSignIn()
        metrics.recordFailure(.invalidMFACode)
        metrics.recordFailure(.invalidMFACode)
        metrics.recordFailure(.invalidMFATicket)
        let families = metrics.families()
        #expect(families.first { $0.name == "latch_mfa_signins_total" }?.samples.map(\.value) == [1])
        let failures = families.first { $0.name == "latch_mfa_failures_total" }
        #expect(failures?.kind == .counter)
        #expect(failures?.samples.map(\.labels) == [["reason": "invalid_mfa_code"], ["reason": "invalid_mfa_ticket"]])
        #expect(failures?.samples.map(\.value) == [2, 1])
    }
}
