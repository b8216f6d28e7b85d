import Foundation

/// What a URL opens: the screens to push on the root, in order, ending with the named destination.
///
/// Two shapes are valid, and `init?(walk:)` enforces them:
/// - a token link alone: `[.confirmAuth(token:)]`, `[.resetPassword(token:)]`, `[.confirmEmailChange(token:)]`,
///   `[.signIn(token:)]` or `[.acceptInvite(token:)]` (no auth needed);
/// - a walk on home: any sequence of `.profile`, `.itemList`, `.itemDetail(id:)`, with every screen's
///   parent inserted in front of it where missing, so Back walks up the hierarchy (auth needed).
///   The empty walk is home itself.
public struct DeepLinkRoute: Hashable, Sendable {
    /// The screens pushed on the root, in order. Empty means the root (home) itself.
    public let path: [AppDeepLink]

    /// The route that shows `link` with its whole hierarchy below it.
    public init(_ link: AppDeepLink) {
        path = link.hierarchy
    }

    /// A route from a sequence of screens; a leading `.home` is the root and is dropped.
    /// Nil when the sequence mixes a token link with other screens (home included) or puts `.home` after the start.
    public init?(walk: [AppDeepLink]) {
        // A token link stands alone, not even under home: it must work signed out.
        if walk.count == 1, let only = walk.first, only.carriesSecret {
            path = walk
            return
        }
        let screens = walk.first == .home ? Array(walk.dropFirst()) : walk
        var normalized: [AppDeepLink] = []
        for screen in screens {
            guard screen != .home, !screen.carriesSecret else { return nil }
            if let parent = screen.parent, normalized.last != parent {
                normalized.append(contentsOf: parent.hierarchy)
            }
            normalized.append(screen)
        }
        path = normalized
    }

    /// The destination the route names: its last screen, or `.home` for the empty walk.
    public var link: AppDeepLink { path.last ?? .home }

    /// Whether any screen on the route needs a signed-in user.
    public var requiresAuth: Bool { path.isEmpty || path.contains { $0.requiresAuth } }

    /// Whether the route holds a token, so it must never be persisted.
    public var carriesSecret: Bool { path.contains { $0.carriesSecret } }
}

extension DeepLinkRoute: Codable {
    private enum CodingKeys: String, CodingKey { case path }

    /// Decodes and re-validates, so restored data can never yield a route the parser would refuse.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let walk = try container.decode([AppDeepLink].self, forKey: .path)
        guard let route = DeepLinkRoute(walk: walk) else {
            throw DecodingError.dataCorruptedError(forKey: .path, in: container, debugDescription: "not a valid route")
        }
        self = route
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
    }
}

extension DeepLinkRoute: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `DeepLinkRoute(path: [confirmAuth(token: <redacted>)])`: never the token (see `Redaction`).
    public var description: String { "DeepLinkRoute(path: \(Redaction.list(path)))" }

    public var debugDescription: String { description }

    /// Each screen reflects itself, redacted.
    public var customMirror: Mirror { Mirror(self, children: ["path": path], displayStyle: .struct) }
}
