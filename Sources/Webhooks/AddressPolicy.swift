import Foundation

/// Which addresses a webhook may connect to: none that reaches into the operator's own networks (server-side
/// request forgery) unless the operator lists the network in `allowed` (`LATCH_WEBHOOKS_ALLOW_NETWORKS`).
public struct AddressPolicy: Sendable, Equatable {
    /// What the operator allows on top of the public internet.
    public var allowed: [IPNetwork]

    public init(allowing allowed: [IPNetwork] = []) {
        self.allowed = allowed
    }

    /// A comma-separated list of CIDRs, as `LATCH_WEBHOOKS_ALLOW_NETWORKS` holds it (empty: none). Nil when an
    /// entry is not a network, so a typo stops the configuration instead of allowing nothing or everything.
    public init?(allowingList list: String) {
        var networks: [IPNetwork] = []
        for entry in list.split(separator: ",") where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let network = IPNetwork(entry) else { return nil }
            networks.append(network)
        }
        allowed = networks
    }

    /// The loopback networks, which `LATCH_WEBHOOKS_ALLOW_HTTP=loopback` allows for development and tests.
    public static let loopback: [IPNetwork] = ["127.0.0.0/8", "::1/128"].compactMap(IPNetwork.init)

    /// The forbidden ranges and their names. IPv4 ones also cover their IPv4-mapped IPv6 spelling.
    static let forbidden: [(network: IPNetwork, name: String)] = [
        ("0.0.0.0/8", "unspecified"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared (CGNAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "private"),
        ("192.168.0.0/16", "private"), ("224.0.0.0/4", "multicast"), ("240.0.0.0/4", "reserved"),
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("fc00::/7", "unique local"),
        ("fe80::/10", "link-local"), ("ff00::/8", "multicast"),
        // IPv4-compatible addresses (deprecated) would reach IPv4 hosts past the IPv4 rows.
        ("::/96", "IPv4-compatible"),
    ].map { (IPNetwork($0.0)!, $0.1) }

    /// NAT64's well-known prefix: the IPv4 address it embeds is judged too.
    static let nat64 = IPNetwork("64:ff9b::/96")!

    /// Why `address` must not be connected to, or nil when it may.
    public func refusal(of address: IPAddress) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        if address.ipv4 == [169, 254, 169, 254] { return "the cloud metadata address" }
        if let range = Self.forbidden.first(where: { $0.network.contains(address) }) {
            return "a \(range.name) address (\(range.network))"
        }
        if Self.nat64.contains(address), let embedded = IPAddress(bytes: Array(address.bytes[12...])) {
            return refusal(of: embedded).map { "NAT64 of " + $0 }
        }
        return nil
    }
}

/// Why a delivery was not attempted: the endpoint breaks the target policy. Never holds the URL's path or query,
/// which may carry the receiver's own token.
public enum WebhookRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `https://` (nor `http://` to a loopback host where that is allowed).
    case scheme(String)
    /// No host, or a user name or password in the URL.
    case malformedURL(String)
    /// The address about to be connected to is forbidden.
    case address(IPAddress, reason: String)
    /// A header value with a control character: it would split the request.
    case header(String)

    public var description: String {
        switch self {
        case .scheme(let detail): "scheme refused: \(detail)"
        case .malformedURL(let detail): "URL refused: \(detail)"
        case .address(let address, let reason): "address \(address) refused: \(reason)"
        case .header(let name): "header \(name) refused: control character"
        }
    }
}

/// Where deliveries may go: `https://` to public addresses; `http://` only to a loopback host and only when
/// `allowsLoopbackHTTP` (`LATCH_WEBHOOKS_ALLOW_HTTP=loopback`). The scheme is judged on the URL, the address on
/// the one connected to, so the two are separate settings: loopback addresses are allowed only when
/// `addresses` allows them (the configuration adds `AddressPolicy.loopback` with the http setting).
public struct WebhookTargetPolicy: Sendable, Equatable {
    public var addresses: AddressPolicy
    public var allowsLoopbackHTTP: Bool

    public init(addresses: AddressPolicy = AddressPolicy(), allowsLoopbackHTTP: Bool = false) {
        self.addresses = addresses
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
    }

    /// Development and tests: `http://` to loopback hosts, and the loopback addresses allowed.
    public static func loopbackDevelopment(allowing networks: [IPNetwork] = []) -> WebhookTargetPolicy {
        WebhookTargetPolicy(addresses: AddressPolicy(allowing: AddressPolicy.loopback + networks),
                            allowsLoopbackHTTP: true)
    }

    /// The URL's own checks, before any name is resolved. Returns whether the transfer is plain http (then only a
    /// loopback address may be connected to).
    public func check(_ url: URL) throws(WebhookRefusal) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .malformedURL("not a URL")
        }
        guard components.user == nil, components.password == nil else {
            throw .malformedURL("credentials in the URL")
        }
        guard let host = components.host, !host.isEmpty else { throw .malformedURL("no host") }
        switch components.scheme?.lowercased() {
        case "https":
            return false
        case "http" where allowsLoopbackHTTP:
            guard Self.isLoopbackName(host) else { throw .scheme("http only to a loopback host") }
            return true
        case "http":
            throw .scheme("http is not allowed (LATCH_WEBHOOKS_ALLOW_HTTP)")
        default:
            throw .scheme("only https")
        }
    }

    /// `localhost` and its subdomains (RFC 6761 §6.3), and literal loopback addresses.
    static func isLoopbackName(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        guard let address = IPAddress(name) else { return false }
        return AddressPolicy.loopback.contains { $0.contains(address) }
    }

    /// Why the address about to be connected to is refused, or nil. `plainHTTP` transfers reach loopback only.
    public func refusal(of address: IPAddress, plainHTTP: Bool) -> WebhookRefusal? {
        if let reason = addresses.refusal(of: address) { return .address(address, reason: reason) }
        if plainHTTP, !AddressPolicy.loopback.contains(where: { $0.contains(address) }) {
            return .address(address, reason: "http reaches loopback addresses only")
        }
        return nil
    }
}
