/// What `LatchClient.handle(_:)` did with a route the app was opened with.
public enum AuthLinkOutcome: Hashable, Sendable {
    /// A `confirmAuth` link (the address is confirmed) or a `signIn` link (the sign-in by mail pending on this
    /// device completed): the user is signed in.
    case signedIn(User)
    /// A `resetPassword` link: show the new-password screen, then call `resetPassword(token:newPassword:)`.
    case resetPassword(token: String)
    /// A `confirmEmailChange` link: the account's address is now the new one (the user as it is now).
    case emailChanged(User)
    /// Any other link: nothing for the client to do; the navigation shows it.
    case notAnAuthLink
}

extension AuthLinkOutcome: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `resetPassword(token: <redacted>)`: never the token.
    public var description: String {
        switch self {
        case .signedIn(let user): "signedIn(\(user.email))"
        case .resetPassword: "resetPassword(token: <redacted>)"
        case .emailChanged(let user): "emailChanged(\(user.email))"
        case .notAnAuthLink: "notAnAuthLink"
        }
    }

    public var debugDescription: String { "AuthLinkOutcome." + description }

    public var customMirror: Mirror {
        switch self {
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .resetPassword: Mirror(self, children: ["token": "<redacted>"], displayStyle: .enum)
        case .emailChanged(let user): Mirror(self, children: ["emailChanged": user], displayStyle: .enum)
        case .notAnAuthLink: Mirror(self, children: [:], displayStyle: .enum)
        }
    }
}
