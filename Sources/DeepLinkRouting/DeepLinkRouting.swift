import Foundation

// Placeholder: the full module (parser, navigation model) is built by its own issue.
// The printer API below is the contract AuthCore relies on and must stay.

/// Every destination the app can be opened at.
public enum AppDeepLink: Hashable, Codable, Sendable {
    case confirmAuth(token: String)
    case resetPassword(token: String)
}

/// The app's custom scheme and the https base of its universal links.
public struct DeepLinkConfiguration: Hashable, Sendable {
    public var appScheme: String
    public var linkBase: URL
    public init(appScheme: String, linkBase: URL) {
        self.appScheme = appScheme
        self.linkBase = linkBase
    }
}

/// Prints links; the server uses it for emails.
public struct DeepLinkPrinter: Sendable {
    public let configuration: DeepLinkConfiguration
    public init(configuration: DeepLinkConfiguration) { self.configuration = configuration }

    public func universalURL(for link: AppDeepLink) -> URL {
        configuration.linkBase
    }

    public func customSchemeURL(for link: AppDeepLink) -> URL {
        configuration.linkBase
    }
}
