import Foundation
import HTTPServer
import LatchTestSupport
import TestKit

/// A started server on 127.0.0.1 with an ephemeral port, stopped when the test is done.
final class TestServer: Sendable {
    let server: HTTPServer
    let log = Locked<[RequestLogEntry]>([])

    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }, router: Router) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2)
        configure(&configuration)
        let log = self.log
        server = HTTPServer(configuration: configuration, responder: router, onRequestCompleted: { entry in
            log.update { $0.append(entry) }
        })
        try server.start()
    }

    deinit {
        server.stop(timeout: .seconds(2))
    }

    var port: Int { server.port }

    func client() throws -> HTTPTestClient {
        try HTTPTestClient(port: port)
    }

    /// One request on a fresh connection.
    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> HTTPTestClient.Response {
        try client().send(method, target, headers: headers, body: body)
    }
}

/// Decodes the project's error body.
struct ErrorBody: Decodable, Equatable {
    struct Detail: Decodable, Equatable {
        let code: String
        let message: String
    }

    let error: Detail
}

/// Blocks a handler until the test lets it go, and tells the test it has started.
/// Lets tests order events without sleeping or measuring time.
final class Gate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func pass() {
        entered.signal()
        released.wait()
    }

    /// Waits (bounded) until a handler is inside `pass()`.
    func waitUntilEntered() -> Bool {
        entered.wait(timeout: .now() + 10) == .success
    }

    func open(count: Int = 1) {
        for _ in 0..<count { released.signal() }
    }
}

/// Runs `body` on a background thread; `wait()` returns its result.
final class Background<Value: Sendable>: Sendable {
    private let result = Locked<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread { [result, done] in
            let outcome = Result { try body() }
            result.update { $0 = outcome }
            done.signal()
        }.start()
    }

    var isFinished: Bool { result.value != nil }

    func wait() throws -> Value? {
        guard done.wait(timeout: .now() + 20) == .success else { return nil }
        return try result.value?.get()
    }
}
