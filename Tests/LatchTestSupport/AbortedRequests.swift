import Foundation

/// Clients that leave mid-request, the way a dropped mobile connection or an impatient probe does: each connects,
/// sends half a request line and closes. libmicrohttpd reports every such connection in a message of its own
/// ("Connection was closed by remote side with incomplete request.").
public enum AbortedRequests {
    /// The bytes each client sends: not even a whole request line.
    public static let partialRequestLine = Array("GET /aborted-mid-request HT".utf8)

    /// Aborts `count` requests to `127.0.0.1:port`, `batch` connections open at a time (keep it under a per-address
    /// connection limit). Returns how many were sent; a refused or failed connection is skipped, not retried.
    ///
    /// Each batch closes a moment after it wrote, as a client that gives up does. Closed at once, the end of stream
    /// often arrives together with the bytes, and libmicrohttpd 0.9.75 with epoll then misses it (it takes a short
    /// read to mean that nothing more is queued): it notices, and reports, the connection only when the header
    /// deadline closes it (`HTTPServerConfiguration.headerTimeout`).
    @discardableResult
    public static func burst(port: Int, count: Int, batch: Int = 10) -> Int {
        var sent = 0
        var remaining = count
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let clients = (0..<size).compactMap { _ in try? HTTPTestClient(port: port, timeout: .seconds(5)) }
            for client in clients where (try? client.write(partialRequestLine)) != nil {
                sent += 1
            }
            usleep(20_000)
            clients.forEach { $0.close() }
        }
        return sent
    }
}
