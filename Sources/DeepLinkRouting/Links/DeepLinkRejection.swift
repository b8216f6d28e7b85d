import Foundation

/// Why a URL is not a link the app understands. The app falls back to its root and logs the reason.
///
/// Values name what was wrong, never a token; strings taken from the URL are cut to 64 characters
/// so that a hostile 10 KB link cannot flood a log. A mangled link may still have moved its token where a name
/// belongs (`myapp://home/<token>`), so the printed forms show only words the parser itself writes and redact
/// any other text (see `Redaction`); the values themselves are kept for code that compares them.
public enum DeepLinkRejection: Error, Hashable, Sendable {
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

    /// Cuts text taken from a URL to a loggable length.
    static func clipped(_ text: some StringProtocol) -> String {
        text.count > 64 ? String(text.prefix(64)) + "…" : String(text)
    }
}

extension DeepLinkRejection: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// For logs: `unknown destination <redacted>`, `missing parameter 'token'`.
    public var description: String {
        switch self {
        case .malformed(let why): "malformed link: \(Self.shown(why, quoted: false))"
        case .tooLong(let length): "link too long: \(length) characters"
        case .unsupportedScheme(let scheme): "unsupported scheme \(Self.shown(scheme))"
        case .unknownHost(let host): "unknown link host \(Self.shown(host))"
        case .missingDestination: "link names no destination"
        case .unknownDestination(let name): "unknown destination \(Self.shown(name))"
        case .misplacedDestination(let name): "destination \(Self.shown(name)) cannot appear there"
        case .missingParameter(let name): "missing parameter \(Self.shown(name))"
        case .duplicateParameter(let name): "parameter \(Self.shown(name)) given more than once"
        case .unexpectedParameter(let name): "unexpected parameter \(Self.shown(name))"
        }
    }

    public var debugDescription: String { "DeepLinkRejection." + caseDescription }

    /// What `dump` and debuggers show: the case and its text, redacted like `description`.
    public var customMirror: Mirror {
        guard let detail else { return Mirror(self, children: [:], displayStyle: .enum) }
        return Mirror(self, children: [caseName: detail], displayStyle: .enum)
    }

    /// `unknownDestination(<redacted>)`, `missingParameter("token")`, `tooLong(9000)`, `missingDestination`.
    var caseDescription: String {
        guard let detail else { return caseName }
        return "\(caseName)(\(detail))"
    }

    private var caseName: String {
        switch self {
        case .malformed: "malformed"
        case .tooLong: "tooLong"
        case .unsupportedScheme: "unsupportedScheme"
        case .unknownHost: "unknownHost"
        case .missingDestination: "missingDestination"
        case .unknownDestination: "unknownDestination"
        case .misplacedDestination: "misplacedDestination"
        case .missingParameter: "missingParameter"
        case .duplicateParameter: "duplicateParameter"
        case .unexpectedParameter: "unexpectedParameter"
        }
    }

    /// The payload as it may be printed, nil for cases without one.
    private var detail: String? {
        switch self {
        case .missingDestination: nil
        case .tooLong(let length): String(length)
        case .malformed(let text), .unsupportedScheme(let text), .unknownHost(let text), .unknownDestination(let text),
             .misplacedDestination(let text), .missingParameter(let text), .duplicateParameter(let text),
             .unexpectedParameter(let text):
            Self.printable(text) ? String(reflecting: text) : Redaction.marker
        }
    }

    private static func shown(_ text: String, quoted: Bool = true) -> String {
        guard printable(text) else { return Redaction.marker }
        return quoted ? "'\(text)'" : text
    }

    /// Whether `text` is one of the words the parser writes into rejections itself: a destination or parameter
    /// name, or a reason for `malformed`. Anything else came from the URL and may be a token.
    private static func printable(_ text: String) -> Bool {
        LinkGrammar.vocabulary.contains(text) || malformedReasons.contains(text)
    }

    /// The reasons `DeepLinkParser` gives for `malformed`; a reason missing here is only redacted, never leaked.
    private static let malformedReasons: Set<String> = [
        "bad percent-encoding", "credentials", "empty", "fragment", "no scheme", "not a URL",
        "port on a custom-scheme link", "whitespace, control or non-ASCII character",
    ]
}
