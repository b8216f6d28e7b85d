import Foundation

/// What `DeepLinkParser.parse` found: a route to open, or why the URL is not one (the app falls back to its root).
///
/// ```swift
/// switch parser.parse(url) {
/// case .recognized(let route):
///     if case .confirmAuth(let token) = route.link { ... }
/// case .rejected(let reason):
///     log(reason.code)
/// }
/// ```
public enum DeepLinkParseResult: Hashable, Sendable {
    case recognized(DeepLinkRoute)
    case rejected(DeepLinkRejection)

    /// The route, when recognized.
    public var route: DeepLinkRoute? {
        if case .recognized(let route) = self { route } else { nil }
    }

    /// The destination the URL names (`route.link`), when recognized.
    public var link: AppDeepLink? { route?.link }

    /// Why the URL was refused, when it was.
    public var rejection: DeepLinkRejection? {
        if case .rejected(let rejection) = self { rejection } else { nil }
    }
}

extension DeepLinkParseResult: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `recognized(DeepLinkRoute(path: [resetPassword(token: <redacted>)]))`: never a token (see `Redaction`).
    public var description: String {
        switch self {
        case .recognized(let route): "recognized(\(route))"
        case .rejected(let rejection): "rejected(\(rejection.caseDescription))"
        }
    }

    public var debugDescription: String { "DeepLinkParseResult." + description }

    public var customMirror: Mirror {
        switch self {
        case .recognized(let route): Mirror(self, children: ["recognized": route], displayStyle: .enum)
        case .rejected(let rejection): Mirror(self, children: ["rejected": rejection], displayStyle: .enum)
        }
    }
}
