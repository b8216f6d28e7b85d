import DeepLinkRouting

/// What an `AuthStateChange` asks of the navigation, given the auth state it shows: the one rule behind
/// `NavigationState.apply(_:)` and `NavigationModel.apply(_:)`.
///
/// The first change (at launch) determines the state; later ones sign in or out only on a real transition, so a
/// repeated `.signedIn` (a refresh, a user update) never resets the stack the user is on.
enum AuthNavigationStep: Hashable, Sendable {
    case determined(signedIn: Bool)
    case signedIn
    case signedOut

    init?(_ change: AuthStateChange, from state: AuthState) {
        switch (state, change) {
        case (.undetermined, .signedIn): self = .determined(signedIn: true)
        case (.undetermined, .signedOut): self = .determined(signedIn: false)
        case (.loggedOut, .signedIn), (.awaitingSecondFactor, .signedIn): self = .signedIn
        case (.loggedIn, .signedOut), (.awaitingSecondFactor, .signedOut): self = .signedOut
        case (.loggedIn, .signedIn), (.loggedOut, .signedOut): return nil
        }
    }
}
