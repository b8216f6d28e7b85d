import Foundation

/// Why a URL is not a link the app understands. The app falls back to its root and logs the reason.
///
/// Values name what was wrong, never a token; strings taken from the URL are cut to 64 characters
/// so that a hostile 10 KB link cannot flood a log.
public enum DeepLinkRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a URL: empty, whitespace or non-ASCII inside, bad percent-encoding, credentials, a fragment.
    case malformed(String)
    /// Longer than the parser's limit (the length is given).
    case tooLong(Int)
    /// Neither the app's custom scheme nor the universal-link scheme (e.g. `javascript`).
    case unsupportedScheme(String)
    /// A universal link from a host (or port) that is not configured.
    case unknownHost(String)
    /// The URL names no destination (`myapp://`, `https://links.example.com/`).
    case missingDestination
    /// A path segment that names no destination.
    case unknownDestination(String)
    /// A known destination in a place it cannot be, e.g. `home` after the first segment, or a token link in a walk.
    case misplacedDestination(String)
    /// A required parameter is absent or empty (`token`, an item `id`).
    case missingParameter(String)
    /// A query parameter given more than once: refused rather than guessing which one counts.
    case duplicateParameter(String)
    /// A query parameter the destination does not take.
    case unexpectedParameter(String)

    /// A stable snake_case code for logs and metrics.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .tooLong: "too_long"
        case .unsupportedScheme: "unsupported_scheme"
        case .unknownHost: "unknown_host"
        case .missingDestination: "missing_destination"
        case .unknownDestination: "unknown_destination"
        case .misplacedDestination: "misplaced_destination"
        case .missingParameter: "missing_parameter"
        case .duplicateParameter: "duplicate_parameter"
        case .unexpectedParameter: "unexpected_parameter"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let why): "malformed link: \(why)"
        case .tooLong(let length): "link too long: \(length) characters"
        case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)'"
        case .unknownHost(let host): "unknown link host '\(host)'"
        case .missingDestination: "link names no destination"
        case .unknownDestination(let name): "unknown destination '\(name)'"
        case .misplacedDestination(let name): "destination '\(name)' cannot appear there"
        case .missingParameter(let name): "missing parameter '\(name)'"
        case .duplicateParameter(let name): "parameter '\(name)' given more than once"
        case .unexpectedParameter(let name): "unexpected parameter '\(name)'"
        }
    }

    /// Cuts text taken from a URL to a loggable length.
    static func clipped(_ text: some StringProtocol) -> String {
        text.count > 64 ? String(text.prefix(64)) + "…" : String(text)
    }
}
