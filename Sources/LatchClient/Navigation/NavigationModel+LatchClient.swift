#if canImport(Observation)
import DeepLinkRouting

extension NavigationModel {
    /// Applies one auth change, with the rules of `NavigationState.apply(_:)`.
    public func apply(_ change: AuthStateChange) {
        switch AuthNavigationStep(change, from: authState) {
        case .determined(let signedIn): authStateDetermined(signedIn: signedIn)
        case .signedIn: signedIn()
        case .signedOut: signedOut()
        case .awaitingSecondFactor: awaitingSecondFactor()
        case nil: break
        }
    }

    /// Drives the navigation from `client`'s auth state until the calling task is cancelled: the root stays
    /// `launching` until the stored session is known, then follows every sign-in and sign-out, including a
    /// session the server ended.
    ///
    /// ```swift
    /// RootView().task { await navigation.follow(latch) }
    /// ```
    public func follow(_ client: LatchClient) async {
        for await change in await client.authStateChanges() {
            apply(change)
        }
    }
}
#endif
