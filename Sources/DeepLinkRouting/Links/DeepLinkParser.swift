import Foundation

/// Reads the URLs the app is opened with (and the links the server's tests find in mails) back into routes.
///
/// Accepts the custom scheme (`myapp://home/profile`, host folded into the path) and universal links from
/// `linkBase` or `additionalHosts` (`https://links.example.com/home/profile`). Anything else, however hostile,
/// is a `DeepLinkRejection`, never a crash.
public struct DeepLinkParser: Hashable, Sendable {
    /// Longest link accepted, in UTF-8 bytes; real links are a few hundred at most.
    public static let defaultMaximumLength = 8192

    public let configuration: DeepLinkConfiguration
    public let maximumLength: Int

    public init(configuration: DeepLinkConfiguration, maximumLength: Int = DeepLinkParser.defaultMaximumLength) {
        self.configuration = configuration
        self.maximumLength = maximumLength
    }

    /// The route `url` names, or why it names none.
    public func parse(_ url: URL) -> DeepLinkParseResult {
        parse(url.absoluteString)
    }

    /// The route `string` names, or why it names none. Surrounding whitespace (from copy and paste) is ignored.
    public func parse(_ string: String) -> DeepLinkParseResult {
        do {
            return .recognized(try route(from: string))
        } catch {
            return .rejected(error)
        }
    }

    /// The route `string` names; throws why it names none.
    public func route(from string: String) throws(DeepLinkRejection) -> DeepLinkRoute {
        let text = string.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.checkCharacters(text, limit: maximumLength)
        // Foundation would silently re-encode stray characters and bad escapes; they were refused above.
        guard let parts = URLComponents(string: text) else { throw .malformed("not a URL") }
        guard let scheme = parts.scheme?.lowercased() else { throw .malformed("no scheme") }
        guard parts.percentEncodedUser == nil, parts.percentEncodedPassword == nil else { throw .malformed("credentials") }
        guard parts.percentEncodedFragment == nil else { throw .malformed("fragment") }

        let encodedSegments: [Substring]
        if scheme == configuration.appScheme.lowercased() {
            guard parts.port == nil else { throw .malformed("port on a custom-scheme link") }
            // In myapp://confirmAuth?token=T the first segment is the host.
            let host = parts.percentEncodedHost ?? ""
            encodedSegments = (host.isEmpty ? [] : [Substring(host)]) + Self.split(parts.percentEncodedPath)
        } else if scheme == universalScheme {
            try checkAuthority(parts)
            encodedSegments = try stripBasePath(Self.split(parts.percentEncodedPath))
        } else {
            throw .unsupportedScheme(DeepLinkRejection.clipped(scheme))
        }
        let segments = try encodedSegments.map(Self.decode)
        let query = try Self.queryItems(parts.percentEncodedQuery)
        return try LinkGrammar.route(segments: segments, query: query)
    }

    // MARK: - Universal links

    private var universalScheme: String { configuration.linkBase.scheme?.lowercased() ?? "https" }

    private func checkAuthority(_ parts: URLComponents) throws(DeepLinkRejection) {
        let authority = Self.authority(host: parts.percentEncodedHost ?? "", port: parts.port, scheme: universalScheme)
        let base = Self.authority(
            host: configuration.linkBase.host ?? "", port: configuration.linkBase.port, scheme: universalScheme
        )
        let accepted = [base] + configuration.additionalHosts.map { $0.lowercased() }
        guard !authority.isEmpty, accepted.contains(authority) else {
            throw .unknownHost(DeepLinkRejection.clipped(authority))
        }
    }

    /// `host` or `host:port`, lowercased, with the scheme's default port left out so `:443` matches no port.
    private static func authority(host: String, port: Int?, scheme: String) -> String {
        let defaultPort = scheme == "http" ? 80 : 443
        let host = host.lowercased()
        guard let port, port != defaultPort else { return host }
        return "\(host):\(port)"
    }

    /// Drops the link base's own path prefix (`https://example.com/links/...`).
    private func stripBasePath(_ segments: [Substring]) throws(DeepLinkRejection) -> [Substring] {
        let prefix = Self.split(configuration.linkBase.path)
        guard segments.starts(with: prefix) else {
            throw .unknownDestination(DeepLinkRejection.clipped(segments.first ?? ""))
        }
        return Array(segments.dropFirst(prefix.count))
    }

    // MARK: - Text

    /// Refuses what no printed link contains: emptiness, excess length, whitespace, control and non-ASCII
    /// characters (a unicode host is refused here), and `%` not followed by two hex digits.
    private static func checkCharacters(_ text: String, limit: Int) throws(DeepLinkRejection) {
        guard !text.isEmpty else { throw .malformed("empty") }
        let length = text.utf8.count
        guard length <= limit else { throw .tooLong(length) }
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            guard byte > 0x20, byte < 0x7F else { throw .malformed("whitespace, control or non-ASCII character") }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else {
                    throw .malformed("bad percent-encoding")
                }
            }
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Path segments, still encoded (so an encoded `/` inside an id stays inside it); empty segments are dropped.
    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func decode(_ part: Substring) throws(DeepLinkRejection) -> String {
        guard let decoded = PercentEncoding.decode(part) else { throw .malformed("bad percent-encoding") }
        return decoded
    }

    /// `name=value` pairs split on the encoded `&` and `=`, then decoded; a repeated name is refused.
    private static func queryItems(_ query: String?) throws(DeepLinkRejection) -> [(name: String, value: String)] {
        guard let query else { return [] }
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(halves[0])
            let value = halves.count > 1 ? try decode(halves[1]) : ""
            guard !items.contains(where: { $0.name == name }) else {
                throw .duplicateParameter(DeepLinkRejection.clipped(name))
            }
            items.append((name, value))
        }
        return items
    }
}
