import Foundation
import HTTPServer
import TestKit

/// A webhook receiver on loopback that records every request (headers and the exact body bytes) and answers as
/// its script says: the statuses it is given in turn (the last one from then on), or per request by a rule that
/// sees the request and how many times its webhook-id came. With `delay`, each answer comes that long after the
/// request is recorded (an attempt in flight); `.hold` keeps the request open until `releaseHeld()` (a receiver
/// that never answers while latchd is killed under it).
final class ScriptedReceiver: Sendable {
    struct Received: Sendable {
        var headers: HTTPHeaders
        var body: [UInt8]

        var webhookID: String? { headers["webhook-id"] }
    }

    enum Answer: Sendable {
        case status(Int)
        case hold
    }

    /// Chooses the answer to a request, given how many requests with its webhook-id came so far (1 for the first).
    typealias Rule = @Sendable (_ request: Received, _ attemptOfID: Int) -> Answer

    let received = Locked<[Received]>([])
    let port: Int
    private let server: HTTPServer
    private let released = Locked(false)

    convenience init(answers: [Int], delay: TimeInterval = 0) throws {
        precondition(!answers.isEmpty)
        let count = Locked(0)
        try self.init(delay: delay) { _, _ in
            let index = count.update { value -> Int in
                value += 1
                return value
            }
            return .status(answers[min(index, answers.count) - 1])
        }
    }

    /// - Parameter threads: the server's threads; a held request keeps one busy, so tests that hold add some.
    init(delay: TimeInterval = 0, threads: Int = 2, rule: @escaping Rule) throws {
        var router = Router()
        router.post("/hook") { [received, released] request in
            let arrived = Received(headers: request.headers, body: request.body)
            let attempt = received.update { list -> Int in
                list.append(arrived)
                return list.filter { $0.webhookID == arrived.webhookID }.count
            }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            switch rule(arrived, attempt) {
            case .status(let status):
                return HTTPResponse(status: HTTPStatus(rawValue: status))
            case .hold:
                // Bounded, so a test that fails before releasing does not keep a server thread for ever.
                _ = eventually(within: .seconds(120), every: .milliseconds(20)) { released.value }
                return HTTPResponse(status: HTTPStatus(rawValue: 503))
            }
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: threads),
                            responder: router)
        try server.start()
        port = server.port
    }

    deinit {
        releaseHeld()
        server.stop(timeout: .seconds(5))
    }

    func url(host: String = "127.0.0.1") -> String { "http://\(host):\(port)/hook" }

    var requests: [Received] { received.value }

    /// Ends every held request (with 503) and every one held from now on.
    func releaseHeld() {
        released.update { $0 = true }
    }

    /// How many requests came with each webhook-id.
    var countsByID: [String: Int] {
        requests.reduce(into: [:]) { counts, request in counts[request.webhookID ?? "", default: 0] += 1 }
    }
}
