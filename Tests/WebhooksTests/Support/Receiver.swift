import Foundation
import HTTPServer
import TestKit

/// A webhook receiver on loopback: records every request it is sent and answers by path (`/ok` 200, `/fail` 500,
/// `/busy` 503 with `Retry-After: 120`, `/gone` 410, `/moved` 302 to `/ok`, `/large` 200 with 1 MiB, `/slow` 200
/// after 3 s).
final class Receiver: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    static let largeBody = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)

    let received = Locked<[Received]>([])
    private let server: HTTPServer
    let port: Int

    init() throws {
        var router = Router()
        let answers: [(String, HTTPResponse)] = [
            ("/ok", HTTPResponse(status: .ok, body: Array("thanks".utf8))),
            ("/fail", HTTPResponse(status: 500, body: Array("broken".utf8))),
            ("/busy", HTTPResponse(status: 503, headers: ["Retry-After": "120"])),
            ("/gone", HTTPResponse(status: 410)),
            ("/moved", HTTPResponse(status: 302, headers: ["Location": "/ok"])),
            ("/large", HTTPResponse(status: .ok, body: Self.largeBody)),
            ("/slow", HTTPResponse(status: .ok)),
        ]
        for (path, answer) in answers {
            router.post(path) { [received] request in
                received.update { $0.append(Received(path: path, headers: request.headers, body: request.body)) }
                if path == "/slow" { Thread.sleep(forTimeInterval: 3) }
                return answer
            }
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 4),
                            responder: router)
        try server.start()
        port = server.port
    }

    deinit { server.stop(timeout: .seconds(5)) }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }
}
