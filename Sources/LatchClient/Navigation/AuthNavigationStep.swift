import DeepLinkRouting

/// What an `AuthStateChange` asks of the navigation, given the auth state it shows: the one rule behind
/// `NavigationState.apply(_:)` and `NavigationModel.apply(_:)`.
///
/// The first change (at launch) determines the state; later ones sign in or out only on a real transition, so a
/// repeated `.signedIn` (a refresh, a user update) never resets the stack the user is on, nor a new ticket (a second
/// sign-in attempt) the second-factor screen. Signing out from the second factor gives that sign-in up.
enum AuthNavigationStep: Hashable, Sendable {
    case determined(signedIn: Bool)
    case signedIn
    case signedOut
    case awaitingSecondFactor

    init?(_ change: AuthStateChange, from state: AuthState) {
        switch (state, change) {
        case (.undetermined, .signedIn): self = .determined(signedIn: true)
        case (.undetermined, .signedOut): self = .determined(signedIn: false)
        case (.loggedOut, .signedIn), (.awaitingSecondFactor, .signedIn): self = .signedIn
        case (.loggedIn, .signedOut), (.awaitingSecondFactor, .signedOut): self = .signedOut
        case (.undetermined, .secondFactorRequired), (.loggedOut, .secondFactorRequired):
            self = .awaitingSecondFactor
        case (.loggedIn, .signedIn), (.loggedOut, .signedOut), (.awaitingSecondFactor, .secondFactorRequired),
             (.loggedIn, .secondFactorRequired):
            return nil
        }
    }
}
