import Foundation

/// Every destination the app can be opened at, and the element type of the app's navigation path.
///
/// URL forms (custom scheme and universal link mean the same; the universal form is shown):
///
/// | link | URL | auth |
/// | --- | --- | --- |
/// | `.home` | `https://links.example.com/home` | yes |
/// | `.profile` | `https://links.example.com/home/profile` | yes |
/// | `.itemList` | `https://links.example.com/home/items` | yes |
/// | `.itemDetail(id:)` | `https://links.example.com/home/items/item/<id>` | yes |
/// | `.confirmAuth(token:)` | `https://links.example.com/confirmAuth?token=<token>` | no |
/// | `.resetPassword(token:)` | `https://links.example.com/resetPassword?token=<token>` | no |
/// | `.confirmEmailChange(token:)` | `https://links.example.com/confirmEmailChange?token=<token>` | no |
/// | `.signIn(token:)` | `https://links.example.com/signIn?token=<token>` | no |
/// | `.acceptInvite(token:)` | `https://links.example.com/acceptInvite?token=<token>` | no |
///
/// `.home` is a root, never pushed; every other case is a screen pushed on a root.
public enum AppDeepLink: Hashable, Codable, Sendable {
    /// The signed-in root.
    case home
    /// The user's profile, pushed on home.
    case profile
    /// The list of items, pushed on home.
    case itemList
    /// One item; its parent is `.itemList`, so a link to it builds `[.itemList, .itemDetail(id:)]`.
    case itemDetail(id: String)
    /// Confirms the email address of a new account with the token from the confirmation mail.
    case confirmAuth(token: String)
    /// Sets a new password with the token from the reset mail.
    case resetPassword(token: String)
    /// Makes a new email address the account's, with the token mailed to that address. Works signed out: the mail
    /// may be opened on another device than the one that asked for the change.
    case confirmEmailChange(token: String)
    /// Signs in without a password with the token from the sign-in mail. Redeemable only by the app instance that
    /// asked for the mail (it holds the attempt's binding secret), so it works signed out, on that device.
    case signIn(token: String)
    /// Accepts an operator's invitation with the token from the invitation mail: the invited person chooses the
    /// account's first password, which confirms the address and signs in. Works signed out (there is no session
    /// before it).
    case acceptInvite(token: String)

    /// Whether the user must be signed in to see this destination.
    /// Token links work signed out: that is how a new or locked-out user gets in.
    public var requiresAuth: Bool {
        switch self {
        case .home, .profile, .itemList, .itemDetail: true
        case .confirmAuth, .resetPassword, .confirmEmailChange, .signIn, .acceptInvite: false
        }
    }

    /// The one-time token carried by `confirmAuth`, `resetPassword`, `confirmEmailChange`, `signIn` and
    /// `acceptInvite`, nil for other links.
    public var token: String? {
        switch self {
        case .confirmAuth(let token), .resetPassword(let token), .confirmEmailChange(let token), .signIn(let token),
             .acceptInvite(let token):
            token
        case .home, .profile, .itemList, .itemDetail: nil
        }
    }

    /// The screen that must sit below this one for Back to behave as in normal use, if any.
    public var parent: AppDeepLink? {
        switch self {
        case .itemDetail: .itemList
        case .home, .profile, .itemList, .confirmAuth, .resetPassword, .confirmEmailChange, .signIn, .acceptInvite: nil
        }
    }

    /// The screens pushed on the root to show this link, ending with the link itself (empty for `.home`).
    public var hierarchy: [AppDeepLink] {
        if self == .home { return [] }
        return (parent?.hierarchy ?? []) + [self]
    }

    /// Whether the link holds a secret, so it must never be persisted or logged.
    public var carriesSecret: Bool { token != nil }
}

extension AppDeepLink: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `confirmAuth(token: <redacted>)`, `itemDetail(id: "42")`, `home`: never the token (see `Redaction`).
    public var description: String {
        switch self {
        case .home: "home"
        case .profile: "profile"
        case .itemList: "itemList"
        case .itemDetail(let id): "itemDetail(id: \(String(reflecting: id)))"
        case .confirmAuth: "confirmAuth(token: \(Redaction.marker))"
        case .resetPassword: "resetPassword(token: \(Redaction.marker))"
        case .confirmEmailChange: "confirmEmailChange(token: \(Redaction.marker))"
        case .signIn: "signIn(token: \(Redaction.marker))"
        case .acceptInvite: "acceptInvite(token: \(Redaction.marker))"
        }
    }

    public var debugDescription: String { "AppDeepLink." + description }

    /// What `dump` and debuggers show: the case and its non-secret payload.
    public var customMirror: Mirror {
        switch self {
        case .home, .profile, .itemList: Mirror(self, children: [:], displayStyle: .enum)
        case .itemDetail(let id): Mirror(self, children: ["id": id], displayStyle: .enum)
        case .confirmAuth, .resetPassword, .confirmEmailChange, .signIn, .acceptInvite:
            Mirror(self, children: ["token": Redaction.marker], displayStyle: .enum)
        }
    }
}
