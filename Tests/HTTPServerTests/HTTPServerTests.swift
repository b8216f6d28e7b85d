import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

@Suite struct HTTPServerTests {
    private static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/users/:id/posts/:post") { request in
            .json([
                "id": request.parameters["id"] ?? "",
                "post": request.parameters["post"] ?? "",
                "path": request.path,
            ])
        }
        router.get("/search") { request in
            .json(["q": request.queryValues("q"), "raw": [request.query]])
        }
        router.post("/echo") { request in
            HTTPResponse(status: .created, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.get("/whoami") { request in .text(request.clientAddress) }
        router.get("/boom") { _ in throw NSError(domain: "secret-detail", code: 42) }
        router.get("/teapot") { _ in throw HTTPError(status: 418, code: "teapot", message: "short and stout") }
        return router
    }

    @Test func routesStaticPathsAndParameters() throws {
        let server = try TestServer(router: Self.router())
        let hello = try server.send("GET", "/hello")
        #expect(hello.status == 200)
        #expect(hello.text == "hello")
        #expect(hello.header("Content-Length") == "5")
        #expect(hello.header("Content-Type") == "text/plain; charset=utf-8")

        let params = try server.send("GET", "/users/a%20b/posts/7?x=1")
        #expect(params.status == 200)
        #expect(params.header("Content-Type") == "application/json; charset=utf-8")
        #expect(params.text == #"{"id":"a b","path":"/users/a b/posts/7","post":"7"}"#)
    }

    @Test func decodesQueryKeepingRepeatedKeys() throws {
        let server = try TestServer(router: Self.router())
        let response = try server.send("GET", "/search?q=a+b&q=%C3%A9&other")
        #expect(try response.json([String: [String]].self) == ["q": ["a b", "é"], "raw": ["q=a+b&q=%C3%A9&other"]])
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        let server = try TestServer(router: Self.router())
        let missing = try server.send("GET", "/nope")
        #expect(missing.status == 404)
        #expect(try missing.json(ErrorBody.self).error.code == "not_found")
        #expect(missing.header("Content-Type") == "application/json; charset=utf-8")

        let wrong = try server.send("DELETE", "/hello")
        #expect(wrong.status == 405)
        #expect(try wrong.json(ErrorBody.self).error.code == "method_not_allowed")
        #expect(wrong.header("Allow") == "GET, HEAD")
    }

    @Test func headUsesTheGetRouteWithoutBody() throws {
        let server = try TestServer(router: Self.router())
        let client = try server.client()
        let head = try client.send("HEAD", "/hello")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "5")
        // The connection is still in sync: no stray body bytes were sent.
        #expect(try client.send("GET", "/hello").text == "hello")
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        let server = try TestServer(router: Self.router())
        let client = try server.client()
        for index in 0..<5 {
            let response = try client.send("POST", "/echo", body: Array("body \(index)".utf8))
            #expect(response.status == 201)
            #expect(response.text == "body \(index)")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func reportsTheClientAddress() throws {
        let server = try TestServer(router: Self.router())
        #expect(try server.send("GET", "/whoami").text == "127.0.0.1")
    }

    @Test func thrownErrorsBecome500WithoutDetails() throws {
        let server = try TestServer(router: Self.router())
        let response = try server.send("GET", "/boom")
        #expect(response.status == 500)
        #expect(try response.json(ErrorBody.self) == ErrorBody(error: .init(code: "internal_error", message: "internal error")))
        #expect(!response.text.contains("secret"))

        let teapot = try server.send("GET", "/teapot")
        #expect(teapot.status == 418)
        #expect(try teapot.json(ErrorBody.self).error.code == "teapot")
    }

    @Test func logsEveryRequestWithoutTheQueryString() throws {
        let server = try TestServer(router: Self.router())
        _ = try server.send("GET", "/search?token=supersecret")
        _ = try server.send("GET", "/nope")
        let entries = try #require(waitForLog(server, count: 2))
        let search = try #require(entries.first { $0.path == "/search" })
        #expect(search.method == "GET")
        #expect(search.status == 200)
        #expect(search.clientAddress == "127.0.0.1")
        #expect(search.completed)
        #expect(search.durationMicroseconds >= 0)
        #expect(entries.contains { $0.path == "/nope" && $0.status == 404 })
        #expect(!entries.contains { $0.path.contains("supersecret") })
    }

    @Test func refusesAPortInUse() throws {
        let first = try TestServer(router: Self.router())
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: first.port), responder: Router())
        #expect(throws: HTTPServerError.self) { try second.start() }
        #expect(second.port == 0)
    }

    @Test func refusesAHostName() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "localhost", port: 0), responder: Router())
        #expect(throws: HTTPServerError.invalidHost("localhost")) { try server.start() }
    }

    /// The completion callback runs just after the response is sent, so poll briefly.
    private func waitForLog(_ server: TestServer, count: Int) -> [RequestLogEntry]? {
        var entries: [RequestLogEntry] = []
        let logged = eventually {
            entries = server.log.value
            return entries.count >= count
        }
        return logged ? entries : nil
    }
}
