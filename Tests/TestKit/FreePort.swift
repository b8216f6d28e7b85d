import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that is free now: for a server the test starts on it (a PostgreSQL cluster, an SMTP
/// sink, an admin listener), or as a port nothing listens on.
///
/// The port comes from below the kernel's ephemeral range, as `scripts/free-port` does. A port from that range,
/// free when chosen, can be taken in the next millisecond by any outgoing connection of the tests running in
/// parallel (libpq, curl, the HTTP client each pick a local port from it), and the server meant for it then fails
/// with "address already in use". Below the range only a server binding that exact port can take it, and this
/// process never hands the same port out twice.
public func freePort() throws -> Int {
    try PortPool.shared.take()
}

private final class PortPool: Sendable {
    static let shared = PortPool()

    private static let lowest = 15000
    private let handedOut = Mutex<Set<Int>>([])
    private let range: Range<Int>?

    private init() {
        let high = Self.ephemeralLow()
        range = high - Self.lowest >= 1000 ? Self.lowest..<high : nil
    }

    func take() throws -> Int {
        if let range {
            for _ in 0..<200 {
                let candidate = Int.random(in: range)
                let isNew = handedOut.withLock { $0.insert(candidate).inserted }
                if isNew, try bindable(candidate) == candidate { return candidate }
            }
        }
        // A machine whose ephemeral range leaves nothing below it: the kernel's choice, racy as it is.
        while true {
            guard let port = try bindable(0) else { continue }
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
    }

    /// The port a socket bound to `port` on 127.0.0.1 got (the kernel's choice for 0), or nil if that port is
    /// taken. The socket is closed again at once.
    private func bindable(_ port: Int) throws -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        if bound { return Int(UInt16(bigEndian: address.sin_port)) }
        if errno == EADDRINUSE && port != 0 { return nil }
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRNOTAVAIL)
    }

    /// The first port of the kernel's ephemeral range (Linux's default where it cannot be read).
    private static func ephemeralLow() -> Int {
        let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        return text?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
    }
}
