import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Many TCP connections that each send a request one byte at a time (slowloris), from several loopback source
/// addresses so that a per-address connection cap does not stop them first (127.0.0.0/8 is all loopback on
/// Linux). For tests of the header and body deadlines.
///
/// Each connection needs a descriptor here and one in a server of the same process: raise RLIMIT_NOFILE first.
/// Not thread-safe: drive it from one thread.
public final class SlowDripClients {
    private struct Connection {
        let socket: Int32
        var sent = 0
        var closedAt: ContinuousClock.Instant?
    }

    private var connections: [Connection] = []
    private let request: [UInt8]
    private let openedAt = ContinuousClock.now

    /// Connects `count` sockets to `127.0.0.1:port`, bound round-robin to `sourceAddresses` addresses starting at
    /// 127.0.0.2, and sends nothing yet.
    /// - Parameter request: the bytes each connection drips, e.g. a request line and headers without the blank line.
    public init(port: Int, count: Int, sourceAddresses: Int, request: [UInt8]) throws {
        self.request = request
        connections.reserveCapacity(count)
        for index in 0..<count {
            let source = "127.0.0.\(2 + index % max(1, min(sourceAddresses, 250)))"
            do {
                connections.append(Connection(socket: try Self.connect(from: source, to: port)))
            } catch {
                closeAll()
                throw error
            }
        }
    }

    deinit {
        closeAll()
    }

    /// Sends the next byte on every connection the server has not closed, and notes the ones it has.
    /// Returns how many are still open.
    @discardableResult
    public func drip() -> Int {
        noticeClosed()
        for index in connections.indices where connections[index].closedAt == nil {
            let byte = request[connections[index].sent % request.count]
            let sent = withUnsafePointer(to: byte) { send(connections[index].socket, $0, 1, Int32(MSG_NOSIGNAL)) }
            if sent == 1 {
                connections[index].sent += 1
            } else if !Self.isTransient(errno) {
                connections[index].closedAt = .now
            }
        }
        return openCount
    }

    /// Connections the server has not closed (as of the last `drip()` or `noticeClosed()`).
    public var openCount: Int {
        connections.filter { $0.closedAt == nil }.count
    }

    /// How long after the connections were opened the server closed each closed one.
    public var closedAfter: [Duration] {
        connections.compactMap { $0.closedAt.map { $0 - openedAt } }
    }

    /// Notes connections the server has closed (end of stream or reset), without sending.
    public func noticeClosed() {
        var polls = connections.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        guard poll(&polls, nfds_t(polls.count), 0) > 0 else { return }
        for index in polls.indices where polls[index].revents != 0 && connections[index].closedAt == nil {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(polls[index].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && !Self.isTransient(errno)) {
                connections[index].closedAt = .now
            }
        }
    }

    /// An error that says nothing about the connection: nothing to send or read now, or a signal (the test process
    /// has many children) interrupted the call. Only the others mean the server closed it.
    private static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    public func closeAll() {
        for connection in connections { close(connection.socket) }
        connections.removeAll()
    }

    private static func connect(from source: String, to port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClient.Failure.connectFailed(errno: errno) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = UInt16(clamping: port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = bound == 0 && withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
        guard connected else {
            let code = errno
            close(fd)
            throw HTTPTestClient.Failure.connectFailed(errno: code)
        }
        return fd
    }
}
