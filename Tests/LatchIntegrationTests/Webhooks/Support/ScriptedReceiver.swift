import Foundation
import HTTPServer
import TestKit

/// A webhook receiver on loopback that answers the statuses it is given in turn (the last one from then on) and
/// records every request: headers and the exact body bytes. With `delay`, each answer comes that long after the
/// request is recorded (an attempt in flight).
final class ScriptedReceiver: Sendable {
    struct Received: Sendable {
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    let received = Locked<[Received]>([])
    let port: Int
    private let server: HTTPServer

    init(answers: [Int], delay: TimeInterval = 0) throws {
        precondition(!answers.isEmpty)
        var router = Router()
        router.post("/hook") { [received] request in
            let count = received.update { list -> Int in
                list.append(Received(headers: request.headers, body: request.body))
                return list.count
            }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            return HTTPResponse(status: HTTPStatus(rawValue: answers[min(count, answers.count) - 1]))
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2),
                            responder: router)
        try server.start()
        port = server.port
    }

    deinit { server.stop(timeout: .seconds(5)) }

    func url(host: String = "127.0.0.1") -> String { "http://\(host):\(port)/hook" }

    var requests: [Received] { received.value }
}
