/// What `LatchClient.handle(_:)` did with a route the app was opened with.
public enum AuthLinkOutcome: Hashable, Sendable {
    /// A `confirmAuth` link (the address is confirmed) or a `signIn` link (the sign-in by mail pending on this
    /// device completed): the user is signed in.
    case signedIn(User)
    /// A `signIn` link whose account asks for its second factor: the same as `SignInResult.mfaRequired`.
    case mfaRequired(ticket: MFATicket, methods: [MFAMethod])
    /// A `resetPassword` link: show the new-password screen, then call `resetPassword(token:newPassword:)`.
    case resetPassword(token: String)
    /// An `acceptInvite` link: show the choose-a-password screen, then call `acceptInvite(token:password:)`, which
    /// signs in.
    case acceptInvite(token: String)
    /// A `confirmEmailChange` link: the account's address is now the new one (the user as it is now).
    case emailChanged(User)
    /// Any other link: nothing for the client to do; the navigation shows it.
    case notAnAuthLink
}

extension AuthLinkOutcome {
    /// A sign-in link's outcome: what completing its sign-in by mail did.
    init(_ signIn: SignInResult) {
        switch signIn {
        case .signedIn(let user): self = .signedIn(user)
        case .mfaRequired(let ticket, let methods): self = .mfaRequired(ticket: ticket, methods: methods)
        }
    }
}

extension AuthLinkOutcome: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `resetPassword(token: <redacted>)`: never the token (nor a second factor's ticket).
    public var description: String {
        switch self {
        case .signedIn(let user): "signedIn(\(user.email))"
        case .mfaRequired(_, let methods): "mfaRequired(methods: \(methods.map(\.rawValue)))"
        case .resetPassword: "resetPassword(token: <redacted>)"
        case .acceptInvite: "acceptInvite(token: <redacted>)"
        case .emailChanged(let user): "emailChanged(\(user.email))"
        case .notAnAuthLink: "notAnAuthLink"
        }
    }

    public var debugDescription: String { "AuthLinkOutcome." + description }

    public var customMirror: Mirror {
        switch self {
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .mfaRequired(let ticket, let methods):
            Mirror(self, children: ["ticket": ticket, "methods": methods], displayStyle: .enum)
        case .resetPassword, .acceptInvite: Mirror(self, children: ["token": "<redacted>"], displayStyle: .enum)
        case .emailChanged(let user): Mirror(self, children: ["emailChanged": user], displayStyle: .enum)
        case .notAnAuthLink: Mirror(self, children: [:], displayStyle: .enum)
        }
    }
}
