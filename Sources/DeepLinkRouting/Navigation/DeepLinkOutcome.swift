/// What opening a link did to the navigation state; the app may log it.
public enum DeepLinkOutcome: Hashable, Sendable {
    /// The route is on screen: its path replaced the stack.
    case opened(DeepLinkRoute)
    /// The route waits for sign-in (or for the auth state to be known at launch) and opens right after.
    case deferred(DeepLinkRoute)
    /// The link was not understood: the stack fell back to its root.
    case rejected(DeepLinkRejection)
}
