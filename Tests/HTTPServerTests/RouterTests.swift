import HTTPServer
import Testing

@Suite struct RouterTests {
    private static func router() -> Router {
        var router = Router()
        router.get("/v1/me") { _ in .text("me") }
        router.get("/v1/users/:id") { request in .text("user \(request.parameters["id"] ?? "?")") }
        router.get("/v1/users/self") { _ in .text("self") }
        router.post("/v1/users/:id") { _ in .text("post") }
        router.on(.head, "/v1/head") { _ in .text("own head") }
        router.get("/v1/head") { _ in .text("get") }
        return router
    }

    private func answer(_ method: HTTPMethod, _ target: String) throws -> HTTPResponse {
        let router = Self.router()
        var request = HTTPRequest(method: method, target: target)
        let match = router.resolve(request)
        request.parameters = match.parameters
        return match.respond(to: request) { _, _ in .internalError }
    }

    private func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func matchesStaticPathsIgnoringQueryAndTrailingSlash() throws {
        #expect(text(try answer(.get, "/v1/me")) == "me")
        #expect(text(try answer(.get, "/v1/me/?a=1")) == "me")
    }

    @Test func capturesDecodedParameters() throws {
        #expect(text(try answer(.get, "/v1/users/a%20b")) == "user a b")
        // An encoded slash stays inside the segment instead of splitting the path.
        #expect(text(try answer(.get, "/v1/users/a%2Fb")) == "user a/b")
    }

    @Test func prefersStaticOverPatternRoutes() throws {
        #expect(text(try answer(.get, "/v1/users/self")) == "self")
        #expect(text(try answer(.post, "/v1/users/self")) == "post")
    }

    @Test func headUsesItsOwnRouteOrFallsBackToGet() throws {
        #expect(text(try answer(.head, "/v1/head")) == "own head")
        #expect(text(try answer(.head, "/v1/me")) == "me")
    }

    @Test func aMatchNamesItsRouteAsRegisteredAndTheRouterListsEveryRoute() {
        let router = Self.router()
        #expect(router.resolve(HTTPRequest(method: .get, target: "/v1/users/7?x=1")).route == "/v1/users/:id")
        #expect(router.resolve(HTTPRequest(method: .get, target: "/v1/nothing")).route == nil)
        #expect(router.routes.contains { $0.method == .get && $0.path == "/v1/users/:id" })
        #expect(Set(router.routes.map { "\($0.method.rawValue) \($0.path)" }).count == router.routes.count)
    }

    @Test func unknownPathIsNotFound() throws {
        let response = try answer(.get, "/v1/nothing")
        #expect(response.status == .notFound)
        #expect(text(response) == #"{"error":{"code":"not_found","message":"no such resource"}}"#)
    }

    @Test func otherMethodIsNotAllowedWithTheAllowedOnes() throws {
        let response = try answer(.delete, "/v1/users/7")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["allow"] == "GET, HEAD, POST")
        #expect(text(response).contains(#""code":"method_not_allowed""#))
    }

    @Test func reportsThePoolOfOffloadedRoutes() {
        let pool = WorkerPool(name: "router-test", threads: 1, queueCapacity: 1)
        defer { pool.shutdown() }
        var router = Router()
        router.post("/hash", pool: pool) { _ in .empty() }
        router.get("/fast") { _ in .empty() }
        #expect(router.resolve(HTTPRequest(method: .post, target: "/hash")).pool === pool)
        #expect(router.resolve(HTTPRequest(method: .get, target: "/fast")).pool == nil)
    }
}
