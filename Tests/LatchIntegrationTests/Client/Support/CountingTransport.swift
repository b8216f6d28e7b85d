import Foundation
import LatchClient
import Synchronization

/// The real `URLSessionTransport`, counting the requests per path: how many refreshes a client really sent.
///
/// Its requests may go two minutes without data, not the app's 30 seconds: the integration tests run hundreds of
/// tests side by side on as few as two cores, and a request timeout would turn that machine's load into a failure
/// (FoundationNetworking's transfers and their timers run on Dispatch's shared threads; under `make test`'s pooler
/// leg a client's requests once went 30 seconds without progress while every socket-level test passed).
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport(session: URLSessionTransport.makeSession(requestTimeout: 120))
    private let counts = Mutex<[String: Int]>([:])

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        counts.withLock { $0[request.url.path, default: 0] += 1 }
        return try await inner.send(request)
    }

    func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
}
