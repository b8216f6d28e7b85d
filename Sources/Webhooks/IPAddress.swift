import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address as 16 bytes: IPv4 as its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`), so one table of
/// networks covers both and `::ffff:10.0.0.1` is judged as what it reaches, 10.0.0.1.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.bytes = Self.mappedPrefix + bytes
        case 16: self.bytes = bytes
        default: return nil
        }
    }

    /// Dotted IPv4 or textual IPv6 (brackets allowed, no zone), as inet_pton reads them.
    public init?(_ text: some StringProtocol) {
        var literal = String(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            return nil
        }
    }

    static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]

    /// The IPv4 address when this is one (IPv4-mapped).
    public var ipv4: [UInt8]? { bytes.starts(with: Self.mappedPrefix) ? Array(bytes[12...]) : nil }

    public var description: String {
        if let ipv4 { return ipv4.map(String.init).joined(separator: ".") }
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A CIDR network. An IPv4 network is kept in its IPv4-mapped form (prefix + 96).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    public let address: IPAddress
    /// Bits of the 128-bit form.
    public let prefixLength: Int

    /// `10.0.0.0/8`, `fc00::/7`, or a bare address (a network of one).
    public init?(_ text: some StringProtocol) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(parts[0]) else { return nil }
        let isV4 = address.ipv4 != nil && !parts[0].contains(":")
        let width = isV4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), let bits = Int(parts[1]), (0...width).contains(bits)
            else { return nil }
            length = bits
        }
        self.address = address
        prefixLength = length + (isV4 ? 96 : 0)
    }

    public func contains(_ candidate: IPAddress) -> Bool {
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, candidate.bytes) {
            guard remaining > 0 else { return true }
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            guard mine & mask == theirs & mask else { return false }
            remaining -= bits
        }
        return true
    }

    public var description: String {
        address.ipv4 != nil && prefixLength >= 96 ? "\(address)/\(prefixLength - 96)" : "\(address)/\(prefixLength)"
    }
}
