import Foundation
import LatchTestSupport
import Synchronization
import TestKit

/// Threads sending GET requests to a server in a loop until `finish()`, each request numbered in an
/// `X-Request-Id` header, so a test can match what handlers saw with what clients received.
final class LoadClients: Sendable {
    struct Outcome: Sendable {
        /// Status received per request id.
        var statuses: [Int: Int] = [:]
        /// Requests whose connection failed before a response (refused, closed, reset).
        var transportFailures = 0
    }

    private let outcome = Locked(Outcome())
    private let stopping = Atomic<Bool>(false)
    private let serverGone = Atomic<Bool>(false)
    private let finished = DispatchGroup()
    private static let nextID = Atomic<Int>(0)

    /// - Parameters:
    ///   - keepAlive: threads that reuse their connection until it fails or is closed.
    ///   - oneShot: threads that open a fresh connection for every request (churning the accept path).
    init(port: Int, paths: [String], keepAlive: Int, oneShot: Int) {
        for index in 0..<(keepAlive + oneShot) {
            finished.enter()
            let fresh = index >= keepAlive
            Thread { [self] in
                run(port: port, paths: paths, freshConnections: fresh)
                finished.leave()
            }.start()
        }
    }

    /// From now on a refused connection means the server has closed its port: threads end there rather than
    /// knock on a port another test's server may soon be given.
    func serverStopping() {
        serverGone.store(true, ordering: .relaxed)
    }

    /// Stops the threads, waits for them, and returns what they saw.
    func finish() -> Outcome {
        stopping.store(true, ordering: .relaxed)
        finished.wait()
        return outcome.value
    }

    private func run(port: Int, paths: [String], freshConnections: Bool) {
        while !stopping.load(ordering: .relaxed) {
            guard let client = try? HTTPTestClient(port: port, timeout: .seconds(10)) else {
                if serverGone.load(ordering: .relaxed) { return }
                usleep(1_000)
                continue
            }
            while !stopping.load(ordering: .relaxed) {
                let id = Self.nextID.add(1, ordering: .relaxed).newValue
                do {
                    let response = try client.send("GET", paths[id % paths.count], headers: [("X-Request-Id", "\(id)")])
                    outcome.update { $0.statuses[id] = response.status }
                    if freshConnections || response.header("Connection")?.lowercased() == "close" { break }
                } catch {
                    outcome.update { $0.transportFailures += 1 }
                    break
                }
            }
            client.close()
        }
    }
}
