import Foundation

/// The app's navigation as a plain value: auth state, root, stack and the link waiting for sign-in.
///
/// Every rule lives here so it can be tested anywhere; `NavigationModel` only makes it observable.
/// - The root follows the auth state: undetermined shows nothing, signed in shows home, signed out shows sign-in.
/// - A link replaces the stack with its whole hierarchy, so Back behaves as in normal use.
/// - An auth-required link while signed out (or before the auth state is known) shows the root, is kept, and opens
///   right after sign-in. Token links (`confirmAuth`, `resetPassword`,
///   `confirmEmailChange`, `signIn`, `acceptInvite`) open signed out.
/// - A sign-in waiting for its second factor is not signed in: its root is the second-factor screen, an
///   auth-required link waits as it does signed out, and the link kept from before waits on; all of them open
///   once the second factor signed in.
/// - Sign-out empties the stack and forgets the pending link: nothing of the old session is reachable by Back.
///   Giving up a second factor is a sign-out too: nothing of the abandoned sign-in carries over to the next one.
/// - A link that is not understood falls back to the root and says why.
public struct NavigationState: Hashable, Sendable {
    /// Reads the URLs passed to `open(url:)`.
    public let parser: DeepLinkParser
    public private(set) var authState: AuthState
    /// The screens above the root, for `NavigationStack(path:)`; settable so Back and in-app pushes write it.
    public var path: [AppDeepLink]
    /// The link waiting for sign-in (or its second factor, or, at launch, for the auth state to be known).
    public private(set) var pendingRoute: DeepLinkRoute?
    /// A sign-up waiting for its confirmation mail, shown instead of sign-in while signed out.
    public private(set) var signUpEmail: String?

    /// A fresh launch: nothing shown until `authStateDetermined(signedIn:)`.
    public init(parser: DeepLinkParser, authState: AuthState = .undetermined) {
        self.parser = parser
        self.authState = authState
        path = []
    }

    /// A launch that resumes where the last one stopped. The restored stack waits, like a pending link, until the
    /// auth state is known: signed in, it is shown again; signed out, it opens after sign-in.
    public init(parser: DeepLinkParser, restoring snapshot: NavigationSnapshot) {
        self.init(parser: parser)
        signUpEmail = snapshot.signUpEmail
        pendingRoute = snapshot.pendingRoute ?? (snapshot.path.isEmpty ? nil : DeepLinkRoute(walk: snapshot.path))
    }

    /// The screen under the stack.
    public var root: NavigationRoot {
        switch authState {
        case .undetermined: .launching
        case .loggedIn: .home
        case .loggedOut: signUpEmail.map { .awaitingConfirmation(email: $0) } ?? .signIn
        case .awaitingSecondFactor: .secondFactor
        }
    }

    /// What to persist for the next launch; it never holds a token or a password.
    public var snapshot: NavigationSnapshot {
        NavigationSnapshot(path: path, pendingRoute: pendingRoute, signUpEmail: signUpEmail)
    }

    // MARK: - Links

    /// Opens the URL the app was launched or activated with.
    @discardableResult
    public mutating func open(url: URL) -> DeepLinkOutcome {
        open(parser.parse(url))
    }

    /// Opens an already parsed link; a rejected one falls back to the root.
    @discardableResult
    public mutating func open(_ result: DeepLinkParseResult) -> DeepLinkOutcome {
        switch result {
        case .recognized(let route):
            return open(route)
        case .rejected(let rejection):
            path = []
            return .rejected(rejection)
        }
    }

    /// Opens a route, subject to the auth rules.
    @discardableResult
    public mutating func open(_ route: DeepLinkRoute) -> DeepLinkOutcome {
        switch authState {
        case .undetermined:
            pendingRoute = route
            return .deferred(route)
        case .loggedOut where route.requiresAuth, .awaitingSecondFactor where route.requiresAuth:
            pendingRoute = route
            path = []
            return .deferred(route)
        case .loggedIn, .loggedOut, .awaitingSecondFactor:
            path = route.path
            return .opened(route)
        }
    }

    // MARK: - Auth

    /// At launch, once the stored session has been checked. A waiting link opens now if it can.
    public mutating func authStateDetermined(signedIn: Bool) {
        if signedIn {
            self.signedIn()
            return
        }
        authState = .loggedOut
        path = []
        if let route = pendingRoute, !route.requiresAuth {
            pendingRoute = nil
            path = route.path
        }
    }

    /// The user signed in (or confirming their email, or the second factor, signed them in): home, then the
    /// waiting link if any.
    public mutating func signedIn() {
        authState = .loggedIn
        signUpEmail = nil
        path = pendingRoute?.path ?? []
        pendingRoute = nil
    }

    /// The user signed out (or the session was revoked, or a sign-in waiting for its second factor was given up or
    /// expired): sign-in, with nothing left to go back to.
    public mutating func signedOut() {
        authState = .loggedOut
        path = []
        pendingRoute = nil
        signUpEmail = nil
    }

    /// The first factor was right and the account asks for a second: the second-factor screen, with an empty
    /// stack (the screen that signed in, a sign-in link's say, is done). The link waiting for sign-in keeps waiting
    /// for the second factor; at launch, one that needs no sign-in opens now, as it would signed out. Ignored while
    /// signed in: a session exists, and a sign-in that has not finished does not replace it.
    public mutating func awaitingSecondFactor() {
        guard authState != .loggedIn else { return }
        authState = .awaitingSecondFactor
        path = []
        if let route = pendingRoute, !route.requiresAuth {
            pendingRoute = nil
            path = route.path
        }
    }

    // MARK: - Sign-up

    /// Sign-up succeeded and a confirmation mail is on its way: show "check your mail" until it is confirmed.
    /// Ignored while signed in.
    public mutating func awaitingConfirmation(email: String) {
        guard authState != .loggedIn else { return }
        signUpEmail = email
        path = []
    }

    /// The user gave up waiting ("use another address"): back to sign-in.
    public mutating func cancelSignUp() {
        signUpEmail = nil
        if authState == .loggedOut { path = [] }
    }
}

extension NavigationState: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The auth state, root, stack and pending route, with every token redacted (see `Redaction`).
    public var description: String {
        "NavigationState(authState: \(authState), root: \(root), path: \(Redaction.list(path)), "
            + "pendingRoute: \(pendingRoute.map(\.description) ?? "nil"))"
    }

    public var debugDescription: String { description }

    /// The stored properties, each of which reflects itself redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "parser": parser, "authState": authState, "path": path, "pendingRoute": pendingRoute as Any,
                "signUpEmail": signUpEmail as Any,
            ],
            displayStyle: .struct
        )
    }
}
