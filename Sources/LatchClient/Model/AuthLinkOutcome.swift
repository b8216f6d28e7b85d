/// What `LatchClient.handle(_:)` did with a route the app was opened with.
public enum AuthLinkOutcome: Hashable, Sendable {
    /// A `confirmAuth` link: the address is confirmed and the user signed in.
    case signedIn(User)
    /// A `resetPassword` link: show the new-password screen, then call `resetPassword(token:newPassword:)`.
    case resetPassword(token: String)
    /// Any other link: nothing for the client to do; the navigation shows it.
    case notAnAuthLink
}

extension AuthLinkOutcome: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `resetPassword(token: <redacted>)`: never the token.
    public var description: String {
        switch self {
        case .signedIn(let user): "signedIn(\(user.email))"
        case .resetPassword: "resetPassword(token: <redacted>)"
        case .notAnAuthLink: "notAnAuthLink"
        }
    }

    public var debugDescription: String { "AuthLinkOutcome." + description }

    public var customMirror: Mirror {
        switch self {
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .resetPassword: Mirror(self, children: ["token": "<redacted>"], displayStyle: .enum)
        case .notAnAuthLink: Mirror(self, children: [:], displayStyle: .enum)
        }
    }
}
