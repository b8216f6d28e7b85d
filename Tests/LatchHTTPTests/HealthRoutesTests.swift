import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct HealthRoutesTests {
    @Test func healthzIsAlwaysOK() throws {
        let api = try APIHarness()
        api.ready.update { $0 = false }
        api.store.setFailing(true)
        let response = api.get("/healthz")
        #expect(response.status == .ok)
        #expect(response.text == #"{"status":"ok"}"#)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test func readyzFollowsTheCheck() throws {
        let api = try APIHarness()
        #expect(api.get("/readyz").status == .ok)
        api.ready.update { $0 = false }
        let response = api.get("/readyz")
        #expect(response.status == .serviceUnavailable)
        #expect(response.errorCode == "not_ready")
        #expect(api.reported.value.isEmpty)
    }
}
