import Foundation

/// Prints links. The server prints the universal form into emails (mail clients strip custom schemes);
/// its landing page offers the custom-scheme form as "Open in app".
///
/// `DeepLinkParser` with the same configuration reads both forms back to the same route.
public struct DeepLinkPrinter: Hashable, Sendable {
    public let configuration: DeepLinkConfiguration

    public init(configuration: DeepLinkConfiguration) { self.configuration = configuration }

    /// `https://links.example.com/confirmAuth?token=T`, `https://links.example.com/home/profile`.
    public func universalURL(for link: AppDeepLink) -> URL {
        universalURL(for: DeepLinkRoute(link))
    }

    /// `myapp://confirmAuth?token=T`, `myapp://home/profile`.
    public func customSchemeURL(for link: AppDeepLink) -> URL {
        customSchemeURL(for: DeepLinkRoute(link))
    }

    /// A universal link to a whole walk, e.g. `https://links.example.com/home/profile/items`.
    public func universalURL(for route: DeepLinkRoute) -> URL {
        var base = configuration.linkBase.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return url(base + "/" + tail(of: route))
    }

    /// A custom-scheme link to a whole walk; the first segment becomes the URL's host.
    public func customSchemeURL(for route: DeepLinkRoute) -> URL {
        url(configuration.appScheme + "://" + tail(of: route))
    }

    /// Path and query, every part encoded with the strict unreserved set.
    private func tail(of route: DeepLinkRoute) -> String {
        let parts = LinkGrammar.parts(of: route)
        var tail = parts.segments.map { PercentEncoding.encode($0, keepingDots: false) }.joined(separator: "/")
        if !parts.query.isEmpty {
            tail += "?" + parts.query.map { item in
                PercentEncoding.encode(item.name, keepingDots: true) + "=" + PercentEncoding.encode(item.value, keepingDots: true)
            }.joined(separator: "&")
        }
        return tail
    }

    /// Every character printed is unreserved or a delimiter, so this only fails for a configuration that
    /// `DeepLinkConfiguration.validate()` refuses; the link base is then the least wrong answer.
    private func url(_ string: String) -> URL {
        URL(string: string) ?? configuration.linkBase
    }
}
