import HTTPServer

/// Reads the client's address and user agent from a request.
///
/// With `trustProxy`, the address is the *last* entry of `X-Forwarded-For`: the one our own proxy appended.
/// Earlier entries are whatever the client chose to send, so trusting them would let anyone pick their rate-limit
/// key. Without `trustProxy` the header is ignored: a directly exposed server must not believe it at all.
struct ClientInfoResolver: Sendable {
    /// Longer user agents are cut: they are stored per session and in the audit log.
    static let maxUserAgentLength = 512

    let trustProxy: Bool

    func resolve(_ request: HTTPRequest) -> ClientInfo {
        ClientInfo(ip: clientIP(request), userAgent: Self.userAgent(request.headers))
    }

    func clientIP(_ request: HTTPRequest) -> String? {
        if trustProxy, let forwarded = Self.lastForwardedAddress(request.headers) {
            return forwarded
        }
        return request.clientAddress.isEmpty ? nil : request.clientAddress
    }

    /// The last entry over every `X-Forwarded-For` field (a proxy may add a field instead of extending one),
    /// if it is a literal IP address; otherwise nil, and the peer address is used.
    static func lastForwardedAddress(_ headers: HTTPHeaders) -> String? {
        // Empty entries are kept: a trailing comma must not promote the entry before it.
        let entries = headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard var last = entries.last?.trimmingCharacters(in: .whitespaces) else { return nil }
        if last.hasPrefix("["), last.hasSuffix("]") {
            last = String(last.dropFirst().dropLast())
        }
        return IPAddressText.isValid(last) ? last : nil
    }

    static func userAgent(_ headers: HTTPHeaders) -> String? {
        guard let value = headers["User-Agent"], !value.isEmpty else { return nil }
        return String(value.prefix(maxUserAgentLength))
    }
}
