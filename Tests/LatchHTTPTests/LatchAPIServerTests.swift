import HTTPServer
import LatchTestSupport
import Testing
@testable import LatchHTTP

/// The API behind a real `HTTPServer` on 127.0.0.1: hashing routes through the worker pool, the server's own
/// limits, and metrics fed by `onRequestCompleted`, as latchd wires them.
@Suite struct LatchAPIServerTests {
    @Test func flowOverTheWire() throws {
        let harness = try APIHarness()
        let api = harness.api
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 1,
                                                                       defaultHeaders: LatchAPI.defaultHeaders),
                                responder: harness.router, onRequestCompleted: { api.recordCompletedRequest($0) })
        try server.start()
        defer { server.stop(timeout: .seconds(2)) }
        let metricsServer = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 1),
                                       responder: harness.metricsRouter)
        try metricsServer.start()
        defer { metricsServer.stop(timeout: .seconds(2)) }
        let client = try HTTPTestClient(port: server.port)

        let signUp = try client.sendJSON("POST", "/v1/signup",
                                         json: #"{"email":"ada@example.com","password":"correct horse"}"#)
        #expect(signUp.status == 202)
        #expect(signUp.header("Cache-Control") == "no-store")
        #expect(signUp.header("X-Content-Type-Options") == "nosniff")

        let token = try #require(harness.mailedToken(.confirmEmail, to: "ada@example.com"))
        let confirm = try client.sendJSON("POST", "/v1/confirm", json: #"{"token":"\#(token)"}"#)
        #expect(confirm.status == 200)
        let access = try confirm.json(SessionBody.self).accessToken

        let me = try client.send("GET", "/v1/me", headers: [("Authorization", "Bearer \(access)")])
        #expect(me.status == 200)
        #expect(me.text.contains("ada@example.com"))

        let basic = try client.send("GET", "/v1/me", headers: [("Authorization", "Basic eDp5")])
        #expect(basic.status == 401)
        #expect(basic.header("WWW-Authenticate") == "Bearer")

        let tooBig = String(repeating: "a", count: 70 * 1024)
        let huge = try HTTPTestClient(port: server.port)
            .sendJSON("POST", "/v1/signin", json: #"{"email":"a@b.co","password":"\#(tooBig)"}"#)
        #expect(huge.status == 413)

        #expect(try client.send("GET", "/metrics").status == 404)
        let metrics = try HTTPTestClient(port: metricsServer.port).send("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains(#"latch_http_requests_total{method="POST",route="/v1/signup",status="2xx"} 1"#))
        #expect(metrics.text.contains(#"latch_http_requests_total{method="GET",route="/v1/me",status="4xx"} 1"#))
        #expect(metrics.text.contains(#"latch_http_requests_total{method="POST",route="/v1/confirm",status="2xx"} 1"#))
    }

    struct SessionBody: Decodable {
        let accessToken: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
        }
    }
}
