import Foundation

/// Why a `DeepLinkConfiguration` cannot be used.
public enum DeepLinkConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The custom scheme is empty, has characters a scheme cannot have, or is http/https.
    case invalidAppScheme(String)
    /// The link base is not an http(s) URL with a host and without query, fragment or credentials.
    case invalidLinkBase(String)

    /// A stable snake_case code for logs and error bodies.
    public var code: String {
        switch self {
        case .invalidAppScheme: "invalid_app_scheme"
        case .invalidLinkBase: "invalid_link_base"
        }
    }

    public var description: String {
        switch self {
        case .invalidAppScheme(let scheme): "app scheme '\(scheme)' must be letters, digits, '+', '-', '.' (not http/https)"
        case .invalidLinkBase(let base): "link base '\(base)' must be http(s)://host[:port][/prefix] with no query or fragment"
        }
    }
}
