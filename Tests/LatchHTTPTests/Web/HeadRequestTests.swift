import HTTPServer
import Testing
@testable import LatchHTTP

/// HEAD is answered for every GET route by the router itself (it borrows the GET handler), so no route can forget
/// it: same status, same headers, and a body of the same length for the server to count in Content-Length and leave
/// unsent (HTTPServerTests checks that part on the wire).
@Suite struct HeadRequestTests {
    @Test func everyGetRouteAnswersHeadLikeGet() throws {
        let web = try WebHarness()
        let token = try web.signUp()
        let getRoutes = web.router.routes.filter { $0.method == .get }.map(\.path)
        #expect(getRoutes.count >= 7)
        for path in getRoutes + ["/confirmAuth?token=\(token)"] {
            let get = web.send(.get, path)
            let head = web.send(.head, path)
            #expect(head.status == get.status, "\(path)")
            #expect(head.body.count == get.body.count, "\(path)")
            #expect(head.headers.map(\.name) == get.headers.map(\.name), "\(path)")
            for field in get.headers where field.name != "Set-Cookie" {
                #expect(head.headers[field.name] == field.value, "\(path): \(field.name)")
            }
        }
        // Nothing was spent: the token still confirms.
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok)
    }
}
