/// What opening a link did to the navigation state; the app may log it.
public enum DeepLinkOutcome: Hashable, Sendable {
    /// The route is on screen: its path replaced the stack.
    case opened(DeepLinkRoute)
    /// The route waits for sign-in (or for the auth state to be known at launch) and opens right after.
    case deferred(DeepLinkRoute)
    /// The link was not understood: the stack fell back to its root.
    case rejected(DeepLinkRejection)
}

extension DeepLinkOutcome: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `opened(DeepLinkRoute(path: [confirmAuth(token: <redacted>)]))`: never a token (see `Redaction`).
    public var description: String {
        switch self {
        case .opened(let route): "opened(\(route))"
        case .deferred(let route): "deferred(\(route))"
        case .rejected(let rejection): "rejected(\(rejection.caseDescription))"
        }
    }

    public var debugDescription: String { "DeepLinkOutcome." + description }

    public var customMirror: Mirror {
        switch self {
        case .opened(let route): Mirror(self, children: ["opened": route], displayStyle: .enum)
        case .deferred(let route): Mirror(self, children: ["deferred": route], displayStyle: .enum)
        case .rejected(let rejection): Mirror(self, children: ["rejected": rejection], displayStyle: .enum)
        }
    }
}
