import Foundation
import LatchTestSupport
import Synchronization

/// Fires one request per thread, all at once: every thread opens its own connection first, then all wait on
/// one gate, so the requests reach the server as close together as the machine allows.
enum ConcurrentRequests {
    /// The status of each request (-1 for a transport failure), in no particular order.
    static func statuses(count: Int, port: Int, send: @escaping @Sendable (HTTPTestClient) throws -> Int) -> [Int] {
        let results = Mutex<[Int]>([])
        let connected = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<count {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                let client = try? HTTPTestClient(port: port)
                connected.signal()
                gate.wait()
                let status: Int = (try? client.map(send)) ?? -1
                client?.close()
                results.withLock { $0.append(status) }
            }
            thread.start()
        }
        for _ in 0..<count { connected.wait() }
        for _ in 0..<count { gate.signal() }
        _ = finished.wait(timeout: .now() + 60)
        return results.withLock { $0 }
    }
}
