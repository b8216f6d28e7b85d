import Foundation

/// The app's custom scheme and the base of its universal links, shared by the server (printing) and the app (parsing).
public struct DeepLinkConfiguration: Hashable, Sendable {
    /// The custom scheme without `://`, e.g. `myapp`. Compared case-insensitively.
    public var appScheme: String
    /// Scheme, host, optional port and optional path prefix of universal links, e.g. `https://links.example.com`
    /// (or `http://127.0.0.1:8080` in development). Printed links start with it.
    public var linkBase: URL
    /// More hosts the parser accepts universal links from (`host` or `host:port`, same scheme as `linkBase`),
    /// e.g. an old domain whose mails are still in inboxes. The printer always uses `linkBase`.
    public var additionalHosts: [String]

    public init(appScheme: String, linkBase: URL, additionalHosts: [String] = []) {
        self.appScheme = appScheme
        self.linkBase = linkBase
        self.additionalHosts = additionalHosts
    }

    /// What is wrong with the configuration, if anything; call it once at start so a bad value stops the process
    /// with a clear message instead of printing unusable links.
    public func validate() throws(DeepLinkConfigurationError) {
        guard Self.isValidScheme(appScheme) else { throw .invalidAppScheme(appScheme) }
        if ["http", "https"].contains(appScheme.lowercased()) { throw .invalidAppScheme(appScheme) }
        guard let parts = URLComponents(url: linkBase, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parts.host, !host.isEmpty,
              parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil
        else { throw .invalidLinkBase(linkBase.absoluteString) }
    }

    /// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    private static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
        }
    }
}
