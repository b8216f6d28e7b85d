import Foundation
import LatchTestSupport
import Synchronization
import TestKit
import Testing

/// latchd stopped the way every deploy stops it: SIGTERM while busy, with connections at and past its budget.
/// `make stress` repeats it (LATCH_STRESS_DAEMON_CYCLES).
@Suite(.serialized) struct DaemonShutdownTests {
    static var cycles: Int {
        ProcessInfo.processInfo.environment["LATCH_STRESS_DAEMON_CYCLES"].flatMap(Int.init) ?? 1
    }

    @Test func sigtermWhileBusyAtTheConnectionLimitExitsZero() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let budget = 12
        for cycle in 0..<Self.cycles {
            let (daemon, port) = try DaemonTests().startDaemon(databaseURL: database.url, extra: [
                "LATCH_MAX_CONNECTIONS": "\(budget)", "LATCH_THREADS": "4", "LATCH_RATE_SIGNIN_IP": "1000000/1m",
                "LATCH_RATE_SIGNIN_EMAIL": "1000000/1m", "LATCH_ARGON2_MEMORY_KIB": "64", "LATCH_ARGON2_ITERATIONS": "1",
            ])
            let load = DaemonLoad(port: port, threads: 6)
            #expect(load.waitForAnswers(20), "cycle \(cycle): the load reached latchd")
            // Idle connections fill the budget and go past it (those are refused as they come).
            let idle = (0..<(budget - 6 + 3)).compactMap { _ in try? HTTPTestClient(port: port) }
            usleep(20_000)
            load.daemonStopping()
            daemon.signal(SIGTERM)
            let status = daemon.wait(timeout: 40)
            let statuses = load.finish()
            idle.forEach { $0.close() }
            let log = daemon.standardError
            #expect(status == 0, "cycle \(cycle) exit \(String(describing: status)): \(log.suffix(3_000))")
            #expect(!log.contains("libmicrohttpd panic") && !log.contains("Fatal error"), "cycle \(cycle)")
            #expect(DaemonTests.jsonLines(log).contains { $0["msg"] as? String == "stopped" }, "cycle \(cycle)")
            // 401: the sign-ins use a wrong password; 503: arrived while stopping (or the hashing queue was full).
            #expect(Set(statuses).isSubset(of: [200, 401, 503]), "cycle \(cycle): \(Set(statuses).sorted())")
        }
    }

    @Test func aLowOpenFileLimitLowersTheConnectionBudgetWithAWarning() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let (daemon, port) = try DaemonTests().startDaemon(databaseURL: database.url, openFileLimit: 400)
        defer {
            daemon.signal(SIGTERM)
            daemon.wait()
        }
        var logged: Int?
        _ = eventually(within: .seconds(10), every: .milliseconds(20)) {
            logged = DaemonTests.loggedPort(daemon.standardError, message: "metrics listening")
            return logged != nil
        }
        let metricsPort = try #require(logged, "\(daemon.standardError)")
        #expect(metricsPort != port)
        let metrics = try HTTPTestClient(port: metricsPort).send("GET", "/metrics").text
        let budget = metrics.split(separator: "\n").first { $0.hasPrefix("latch_http_connections_max ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
        let warning = DaemonTests.jsonLines(daemon.standardError).first {
            ($0["msg"] as? String)?.hasPrefix("warning: LATCH_MAX_CONNECTIONS lowered") == true
        }
        if Self.openFileLimit(of: daemon.pid) ?? 0 >= 10_000 {
            // Root with CAP_SYS_RESOURCE may raise the hard limit: then the default budget stands.
            #expect(warning == nil)
            #expect(budget == 10_000)
        } else {
            let granted = try #require(warning?["granted"] as? Int, "\(daemon.standardError)")
            #expect((1..<400).contains(granted))
            #expect(warning?["requested"] as? Int == 10_000)
            #expect(budget == granted, "/metrics reports the budget in force")
        }
    }

    /// The soft RLIMIT_NOFILE of a running process, from /proc.
    static func openFileLimit(of pid: Int32) -> Int? {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
              let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
    }
}

/// Threads sending a mix of requests to latchd (inline, and offloaded to the hashing pool) until `finish()`,
/// reconnecting whenever a connection is refused or closed.
private final class DaemonLoad: Sendable {
    private let statuses = Mutex<[Int]>([])
    private let stopping = Atomic<Bool>(false)
    private let daemonGone = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    init(port: Int, threads: Int) {
        for _ in 0..<threads {
            finished.enter()
            Thread { [self] in
                run(port: port)
                finished.leave()
            }.start()
        }
    }

    /// Waits (bounded) until `count` answers came back.
    func waitForAnswers(_ count: Int) -> Bool {
        eventually { statuses.withLock { $0.count } >= count }
    }

    /// From now on a refused connection means the daemon has closed its port: stop there rather than knock on a
    /// port another test's server may soon be given.
    func daemonStopping() {
        daemonGone.store(true, ordering: .relaxed)
    }

    func finish() -> [Int] {
        stopping.store(true, ordering: .relaxed)
        finished.wait()
        return statuses.withLock { $0 }
    }

    private func run(port: Int) {
        var turn = 0
        while !stopping.load(ordering: .relaxed) {
            guard let client = try? HTTPTestClient(port: port, timeout: .seconds(10)) else {
                if daemonGone.load(ordering: .relaxed) { return }
                usleep(2_000)
                continue
            }
            while !stopping.load(ordering: .relaxed) {
                turn += 1
                do {
                    let response = switch turn % 3 {
                    // A new email each time: no lockout backoff (429) for repeated failures.
                    case 0: try client.sendJSON(
                        "POST", "/v1/signin", json: #"{"email":"x\#(UUID().uuidString)@example.test","password":"wrong one"}"#)
                    case 1: try client.send("GET", "/readyz")
                    default: try client.send("GET", "/healthz")
                    }
                    statuses.withLock { $0.append(response.status) }
                    if response.header("Connection")?.lowercased() == "close" { break }
                } catch {
                    break
                }
            }
            client.close()
        }
    }
}
