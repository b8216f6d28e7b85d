import AuthCore
import DeepLinkRouting

/// The token links a person may open in a browser: the page path, the token's purpose and the app link.
enum LandingFlow: String, Sendable, CaseIterable {
    case confirm
    case reset
    case emailChange = "email_change"
    /// Sign-in by mail. The record is bound to the app instance that asked for it (only that instance keeps the
    /// secret redemption needs), so no browser can ever redeem it: the page has no form and hands the link to the app.
    case signIn = "sign_in"
    /// An operator's invitation: the page sets the account's first password (no session: the browser would never
    /// receive its tokens; the person then signs in in the app).
    case invite

    /// Where the universal link points (DeepLinkRouting's path), for GET and, for a flow with a form, POST alike.
    var path: String {
        switch self {
        case .confirm: "/confirmAuth"
        case .reset: "/resetPassword"
        case .emailChange: "/confirmEmailChange"
        case .signIn: "/signIn"
        case .invite: "/acceptInvite"
        }
    }

    /// The form's `action`: relative, so it also works when a proxy serves the pages under a path prefix.
    var formAction: String { String(path.dropFirst()) }

    /// The form the page redeems the token with, posted back to `path`; nil when no browser can redeem the token
    /// (then `path` takes no POST at all: the router answers 405).
    var form: LandingForm? {
        switch self {
        case .confirm: .confirmAddress
        case .reset: .newPassword
        case .emailChange: .changeAddress
        case .signIn: nil
        case .invite: .firstPassword
        }
    }

    var purpose: TokenPurpose {
        switch self {
        case .confirm: .confirm
        case .reset: .reset
        case .emailChange: .emailChange
        case .signIn: .signIn
        case .invite: .invite
        }
    }

    /// The link the app opens for this token; printed with the custom scheme for "Open in app".
    func appLink(token: String) -> AppDeepLink {
        switch self {
        case .confirm: .confirmAuth(token: token)
        case .reset: .resetPassword(token: token)
        case .emailChange: .confirmEmailChange(token: token)
        case .signIn: .signIn(token: token)
        case .invite: .acceptInvite(token: token)
        }
    }
}

/// What a landing page's form asks for before it posts (every form also carries its credential and CSRF value); its
/// button's words are `LandingPageWords.submitLabel`'s.
enum LandingForm: Sendable {
    /// One button: confirm the address the mail went to.
    case confirmAddress
    /// A new password and its button.
    case newPassword
    /// One button: move the account to the address the mail went to.
    case changeAddress
    /// An invited account's first password and its button (no second-factor field: an invited account has none).
    case firstPassword
}
