import Foundation

/// The part of a client's address that per-address rate limits count.
///
/// An IPv4 address counts as itself. An IPv6 client counts by its /64: one subscriber, one machine even, gets a
/// whole /64 (SLAAC, privacy addresses) and could otherwise take a fresh address, and a fresh budget, for every
/// request. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) counts as its IPv4 address. Text that is not an IP
/// address is used as it is (it still keys consistently).
public enum ClientAddressKey {
    public static func key(for address: String) -> String {
        guard address.contains(":") else { return address }
        var text = Substring(address)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }  // fe80::1%eth0: the zone is not the host
        guard let groups = IPv6Groups(text) else { return address }
        if groups.values[0..<5].allSatisfy({ $0 == 0 }), groups.values[5] == 0xFFFF {
            let (high, low) = (groups.values[6], groups.values[7])
            return [high >> 8, high & 0xFF, low >> 8, low & 0xFF].map(String.init).joined(separator: ".")
        }
        return groups.values[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}

/// The eight 16-bit groups of an IPv6 address in text form (RFC 4291 §2.2: `::` once, an IPv4 tail allowed).
struct IPv6Groups {
    let values: [UInt16]

    init?(_ text: Substring) {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        guard let head = Self.groups(halves[0]) else { return nil }
        if halves.count == 1 {
            guard head.count == 8 else { return nil }
            values = head
        } else {
            guard let tail = Self.groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            values = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        }
    }

    /// Colon-separated hex groups; the last may be a dotted IPv4 address (two groups). Empty text is no group.
    private static func groups(_ text: String) -> [UInt16]? {
        if text.isEmpty { return [] }
        var result: [UInt16] = []
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, part.contains(".") {
                let octets = part.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                guard octets.count == 4, part.split(separator: ".").count == 4 else { return nil }
                result.append(UInt16(octets[0]) << 8 | UInt16(octets[1]))
                result.append(UInt16(octets[2]) << 8 | UInt16(octets[3]))
            } else {
                guard (1...4).contains(part.count), let value = UInt16(part, radix: 16) else { return nil }
                result.append(value)
            }
        }
        return result
    }
}
