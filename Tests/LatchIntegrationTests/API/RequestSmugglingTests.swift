import Foundation
import LatchTestSupport
import Testing

/// The latchd binary refuses requests whose body length a proxy in front could read differently from libmicrohttpd
/// (RFC 9112 §6.1, §6.3) with 400 `bad_request` and closes their connection, and answers over-long targets and
/// headers itself (414, 431) instead of leaving them to libmicrohttpd's bare HTML pages: every one of these answers
/// is the JSON error envelope with the headers every answer has, and gets a JSON request log line.
@Suite struct RequestSmugglingTests {
    struct Case: Sendable {
        let name: String
        let request: String
        let status: Int
        let code: String
    }

    /// A sign-in whose chunked body is followed, in the same write, by a second request: what a proxy reading the
    /// body by `Content-Length` would forward as part of this request, and latchd would read as a request of its own.
    static func signIn(_ fields: [String]) -> String {
        let body = #"{"email":"a@example.test","password":"x"}"#
        return "POST /v1/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + fields.map { $0 + "\r\n" }.joined() + "\r\n"
            + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
            + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    }

    static let cases: [Case] = [
        Case(name: "Content-Length and Transfer-Encoding",
             request: signIn(["Content-Length: 4", "Transfer-Encoding: chunked"]), status: 400, code: "bad_request"),
        Case(name: "a Transfer-Encoding list", request: signIn(["Transfer-Encoding: gzip, chunked"]), status: 400,
             code: "bad_request"),
        Case(name: "Transfer-Encoding twice",
             request: signIn(["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"]), status: 400,
             code: "bad_request"),
        Case(name: "a target over 8 KiB",
             request: "GET /healthz?\(String(repeating: "q", count: 9 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n",
             status: 414, code: "uri_too_long"),
        Case(name: "headers over 16 KiB",
             request: "GET /healthz HTTP/1.1\r\nHost: x\r\n"
                + "X-Padding: \(String(repeating: "p", count: 20 * 1024))\r\n\r\n",
             status: 431, code: "header_fields_too_large"),
    ]

    @Test func latchdAnswersAmbiguousAndOversizedRequestsAsJSONAndClosesTheirConnection() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let (daemon, port) = try DaemonTests().startDaemon(databaseURL: database.url)
        defer {
            if daemon.isRunning {
                daemon.signal(SIGTERM)
                daemon.wait()
            }
        }

        for example in Self.cases {
            let exchange = try RawExchange(port: port, example.request)
            guard let response = try? exchange.firstResponse() else {
                // libmicrohttpd by itself would wait for the end of a body it cannot delimit: nothing comes back.
                Issue.record("\(example.name): no response, \(exchange.received.count) bytes")
                continue
            }
            #expect(response.status == example.status, "\(example.name): \(response.status)")
            #expect((try? exchange.responses().count) == 1, "\(example.name): nothing after the refused request was answered")
            #expect((try? response.json(ErrorJSON.self))?.error.code == example.code, "\(example.name): \(response.text)")
            #expect(response.header("content-type") == "application/json; charset=utf-8", "\(example.name)")
            #expect(response.header("cache-control") == "no-store", "\(example.name)")
            #expect(response.header("x-content-type-options") == "nosniff", "\(example.name)")
            #expect(response.header("connection")?.lowercased() == "close", "\(example.name)")
            #expect(exchange.end != .keptOpen, "\(example.name): the connection was kept")
        }
        #expect(try HTTPTestClient(port: port).send("GET", "/healthz").status == 200, "still serving")

        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
        let log = daemon.standardError
        let nonJSON = DaemonStandardErrorTests.nonJSONLines(log)
        #expect(nonJSON.isEmpty, "\(nonJSON.prefix(3))")
        let requests = DaemonTests.jsonLines(log).filter { $0["msg"] as? String == "request" }
        let statuses = requests.compactMap { $0["status"] as? Int }
        #expect(statuses.filter { $0 == 400 }.count == 3, "\(statuses)")
        #expect(statuses.contains(414) && statuses.contains(431), "\(statuses)")
        #expect(!log.contains("qqqq") && !log.contains("pppp"), "neither the target's query nor a header is logged")
    }
}
