import Foundation
@testable import LatchTestSupport
import Testing

/// How the suite's pooler leg rewrites a daemon's database URL (`TestPooler`).
@Suite struct TestPoolerTests {
    let server = "postgresql://latch@127.0.0.1:5500/postgres"
    let endpoint = URLComponents(string: "postgresql://latch@127.0.0.1:6600/postgres?pgbouncer=true")!

    @Test func aDatabaseOfTheServerGoesThroughThePoolerUnderItsOwnName() throws {
        let even = try #require(TestPooler.pooledURL(
            "postgresql://latch@127.0.0.1:5500/latch_test_0a", server: server, endpoint: endpoint))
        #expect(even.url == "postgresql://latch@127.0.0.1:6600/latch_test_0a?pgbouncer=true")
        #expect(even.listens)
        let odd = try #require(TestPooler.pooledURL(
            "postgresql://latch@127.0.0.1:5500/latch_test_0b?connect_timeout=5", server: server, endpoint: endpoint))
        #expect(odd.url == "postgresql://latch@127.0.0.1:6600/latch_test_0b?connect_timeout=5&pgbouncer=true")
        #expect(!odd.listens)
    }

    @Test func otherServersAndPooledURLsStayAsTheyAre() {
        #expect(TestPooler.pooledURL("postgresql://latch@127.0.0.1:1/none", server: server, endpoint: endpoint) == nil)
        #expect(TestPooler.pooledURL(
            "postgresql://latch@127.0.0.1:5500/x?pgbouncer=true", server: server, endpoint: endpoint) == nil)
    }
}
