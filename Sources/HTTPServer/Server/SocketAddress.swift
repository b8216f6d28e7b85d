import Foundation

/// A literal IP address and port in the `sockaddr` form libmicrohttpd binds to,
/// and the reverse (a peer's `sockaddr` as text).
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    init?(host: String, port: UInt16) {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
            return
        }
        return nil
    }

    var isIPv6: Bool {
        if case .v6 = self { true } else { false }
    }

    /// Lends the address as a `sockaddr` pointer for the duration of `body`.
    func withSockaddrPointer<R>(_ body: (UnsafeMutableRawPointer?) -> R) -> R {
        switch self {
        case .v4(var address): withUnsafeMutableBytes(of: &address) { body($0.baseAddress) }
        case .v6(var address): withUnsafeMutableBytes(of: &address) { body($0.baseAddress) }
        }
    }

    /// The numeric text of a peer address; empty for anything but IPv4/IPv6.
    static func describe(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let text: UnsafePointer<CChar>?
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            text = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                withUnsafePointer(to: v4.pointee.sin_addr) { inet_ntop(AF_INET, $0, &buffer, socklen_t(buffer.count)) }
            }
        case AF_INET6:
            text = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafePointer(to: v6.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &buffer, socklen_t(buffer.count)) }
            }
        default:
            return ""
        }
        guard text != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
