import DeepLinkRouting

extension NavigationState {
    /// Follows the client's auth state: the first change determines it (a link that waited opens if it can),
    /// signing in resumes the link that waited for it, signing out empties the stack, and a sign-in waiting for its
    /// second factor shows the `.secondFactor` root, the waiting link held until the factor signs in.
    public mutating func apply(_ change: AuthStateChange) {
        switch AuthNavigationStep(change, from: authState) {
        case .determined(let signedIn): authStateDetermined(signedIn: signedIn)
        case .signedIn: signedIn()
        case .signedOut: signedOut()
        case .awaitingSecondFactor: awaitingSecondFactor()
        case nil: break
        }
    }
}
