import Foundation
import LatchClient
import Synchronization

/// The real `URLSessionTransport`, counting the requests per path: how many refreshes a client really sent.
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let counts = Mutex<[String: Int]>([:])

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        counts.withLock { $0[request.url.path, default: 0] += 1 }
        return try await inner.send(request)
    }

    func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
}
