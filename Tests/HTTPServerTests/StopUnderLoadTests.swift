import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// Start/stop cycles under concurrent load with connections at and past the budget: stopping must never abort the
/// process (libmicrohttpd panics abort it), and every request a handler began must get its answer, 200 or 503.
/// `make test` runs a few cycles; `make stress` runs 500 (LATCH_STRESS_STOP_CYCLES).
@Suite struct StopUnderLoadTests {
    /// Request ids whose handler began.
    private final class Entered: Sendable {
        let ids = Locked(Set<Int>())

        func note(_ request: HTTPRequest) {
            guard let id = request.headers["X-Request-Id"].flatMap(Int.init) else { return }
            ids.update { _ = $0.insert(id) }
        }
    }

    @Test func stoppingUnderLoadAtTheConnectionLimitIsAlwaysClean() throws {
        let cycles = StressSettings.stopCycles
        var problems: [String] = []
        var answered = 0
        for cycle in 0..<cycles {
            let result = try runCycle(seed: cycle)
            answered += result.answered
            problems += result.problems.map { "cycle \(cycle): \($0)" }
            if problems.count > 20 { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        // The load really reached the handlers: not a test of an idle server.
        #expect(answered >= cycles)
    }

    private func runCycle(seed: Int) throws -> (answered: Int, problems: [String]) {
        let pool = WorkerPool(name: "test-stop-\(seed)", threads: 2, queueCapacity: 8)
        defer { pool.shutdown() }
        let entered = Entered()
        var router = Router()
        router.get("/inline") { request in
            entered.note(request)
            return .text("inline")
        }
        router.get("/slow") { request in
            entered.note(request)
            usleep(2_000)
            return .text("slow")
        }
        router.get("/pooled", pool: pool) { request in
            entered.note(request)
            usleep(500)
            return .text("pooled")
        }
        // Four threads, each with a share of the libmicrohttpd limit it fills up and empties all the time.
        let budget = 12
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 4, maxConnections: budget),
            responder: router)
        try server.start()
        let port = server.port
        let load = LoadClients(port: port, paths: ["/inline", "/pooled", "/slow", "/pooled"], keepAlive: 4, oneShot: 3)
        // Once the keep-alive clients are in, idle connections take all but two places: the one-shot clients,
        // more than those two, keep connections opening, closing and being refused at the limit.
        _ = eventually { entered.ids.value.count >= 4 }
        var idle: [HTTPTestClient] = []
        for _ in 0..<(budget - 4 - 2) {
            if let client = try? HTTPTestClient(port: port) { idle.append(client) }
        }
        usleep(UInt32(10_000 + (seed % 7) * 5_000))
        load.serverStopping()
        server.stop(timeout: .seconds(5))
        let outcome = load.finish()
        for client in idle { client.close() }

        var problems: [String] = []
        let unexpected = outcome.statuses.filter { $0.value != 200 && $0.value != 503 }
        if !unexpected.isEmpty { problems.append("statuses other than 200/503: \(Set(unexpected.values).sorted())") }
        let unanswered = entered.ids.value.filter { outcome.statuses[$0] == nil }
        if !unanswered.isEmpty { problems.append("\(unanswered.count) requests reached a handler but got no answer") }
        return (outcome.statuses.values.filter { $0 == 200 }.count, problems)
    }
}
