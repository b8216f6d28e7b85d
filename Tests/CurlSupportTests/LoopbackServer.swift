import Foundation
import HTTPServer

/// Answers on loopback what the CurlSupport tests transfer: `/bytes` a body of `bodySize` counting bytes,
/// `/headers` repeated and padded header fields, `/hop` a 302 with its own header to `/headers`, `/echo` the POSTed
/// body back, `/slow` a 200 after a second.
final class LoopbackServer: Sendable {
    static let bodySize = 100_000
    /// Longer than curl's 16 KiB receive buffer, so that the cap falls inside a later write callback too.
    static let body = Data((0..<bodySize).map { UInt8(truncatingIfNeeded: $0) })

    private let server: HTTPServer

    init() throws {
        var router = Router()
        router.get("/bytes") { _ in HTTPResponse(body: Array(Self.body)) }
        router.get("/headers") { _ in
            var headers = HTTPHeaders()
            headers.add(name: "X-Repeated", value: "first")
            headers.add(name: "X-Repeated", value: "second")
            headers.add(name: "X-Padded", value: "  value with spaces  ")
            return HTTPResponse(headers: headers)
        }
        router.get("/hop") { _ in HTTPResponse(status: 302, headers: ["Location": "/headers", "X-Hop": "yes"]) }
        router.post("/echo") { request in HTTPResponse(body: request.body) }
        router.get("/slow") { _ in
            Thread.sleep(forTimeInterval: 1)
            return HTTPResponse()
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: router)
        try server.start()
    }

    deinit { server.stop(timeout: .seconds(2)) }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(server.port)\(path)"
    }
}
