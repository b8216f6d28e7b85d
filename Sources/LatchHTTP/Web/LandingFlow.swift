import AuthCore
import DeepLinkRouting

/// The token links a person may open in a browser: the page path, the token's purpose and the app link.
enum LandingFlow: String, Sendable, CaseIterable {
    case confirm
    case reset
    case emailChange = "email_change"

    /// Where the universal link points (DeepLinkRouting's path), for GET and POST alike.
    var path: String {
        switch self {
        case .confirm: "/confirmAuth"
        case .reset: "/resetPassword"
        case .emailChange: "/confirmEmailChange"
        }
    }

    /// The form's `action`: relative, so it also works when a proxy serves the pages under a path prefix.
    var formAction: String { String(path.dropFirst()) }

    var purpose: TokenPurpose {
        switch self {
        case .confirm: .confirm
        case .reset: .reset
        case .emailChange: .emailChange
        }
    }

    /// The link the app opens for this token; printed with the custom scheme for "Open in app".
    func appLink(token: String) -> AppDeepLink {
        switch self {
        case .confirm: .confirmAuth(token: token)
        case .reset: .resetPassword(token: token)
        case .emailChange: .confirmEmailChange(token: token)
        }
    }
}
