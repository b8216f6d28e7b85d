import DeepLinkRouting

extension NavigationState {
    /// Follows the client's auth state: the first change determines it (a link that waited opens if it can),
    /// signing in resumes the link that waited for it, signing out empties the stack.
    public mutating func apply(_ change: AuthStateChange) {
        switch AuthNavigationStep(change, from: authState) {
        case .determined(let signedIn): authStateDetermined(signedIn: signedIn)
        case .signedIn: signedIn()
        case .signedOut: signedOut()
        case nil: break
        }
    }
}
