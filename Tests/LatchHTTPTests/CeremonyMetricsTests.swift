import AuthCore
import Testing
@testable import LatchHTTP

/// `/metrics` counts each ceremony's sign-ins and its refusals by code, so guessing codes or forging tokens shows.
@Suite struct CeremonyMetricsTests {
    @Test func signInsAndFailuresAreCounted() {
        let metrics = CeremonyMetrics.secondFactor()
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

    @Test func eachCeremonyHasItsOwnFamilies() {
        let names = [CeremonyMetrics.secondFactor(), .passkey(), .provider()].flatMap { $0.families().map(\.name) }
        #expect(names == ["latch_mfa_signins_total", "latch_mfa_failures_total", "latch_passkey_signins_total",
                          "latch_passkey_failures_total", "latch_provider_signins_total",
                          "latch_provider_failures_total"])
    }
}
