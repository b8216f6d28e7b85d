#if canImport(Observation)
import Foundation
import Observation

/// The app's navigation for SwiftUI: a `NavigationState` made observable, on the main actor.
///
/// ```swift
/// NavigationStack(path: $model.path) { RootView(root: model.root) }
///     .navigationDestination(for: AppDeepLink.self) { DestinationView(link: $0) }
///     .onOpenURL { model.open(url: $0) }
/// ```
@Observable
@MainActor
public final class NavigationModel {
    /// Every rule is applied by this value; the model only publishes its changes.
    public private(set) var state: NavigationState
    @ObservationIgnored private let onRejectedLink: @MainActor (DeepLinkRejection) -> Void

    /// - Parameters:
    ///   - restoring: `restorationData()` from the previous launch; unreadable data starts fresh.
    ///   - onRejectedLink: called with the reason for every link that fell back to the root, for logging.
    ///     It gets no URL: a refused link may still hold a token.
    public init(
        parser: DeepLinkParser,
        restoring data: Data? = nil,
        onRejectedLink: @escaping @MainActor (DeepLinkRejection) -> Void = { _ in }
    ) {
        if let data, let snapshot = try? NavigationSnapshot(data: data) {
            state = NavigationState(parser: parser, restoring: snapshot)
        } else {
            state = NavigationState(parser: parser)
        }
        self.onRejectedLink = onRejectedLink
    }

    /// Bind to `NavigationStack(path:)`.
    public var path: [AppDeepLink] {
        get { state.path }
        set { state.path = newValue }
    }

    public var root: NavigationRoot { state.root }
    public var authState: AuthState { state.authState }
    public var pendingRoute: DeepLinkRoute? { state.pendingRoute }

    /// For `.onOpenURL`.
    @discardableResult
    public func open(url: URL) -> DeepLinkOutcome {
        let outcome = state.open(url: url)
        if case .rejected(let rejection) = outcome { onRejectedLink(rejection) }
        return outcome
    }

    /// For in-app navigation to a destination with its hierarchy.
    @discardableResult
    public func open(_ link: AppDeepLink) -> DeepLinkOutcome {
        state.open(DeepLinkRoute(link))
    }

    public func authStateDetermined(signedIn: Bool) { state.authStateDetermined(signedIn: signedIn) }
    public func signedIn() { state.signedIn() }
    public func signedOut() { state.signedOut() }
    public func awaitingSecondFactor() { state.awaitingSecondFactor() }
    public func awaitingConfirmation(email: String) { state.awaitingConfirmation(email: email) }
    public func cancelSignUp() { state.cancelSignUp() }

    /// What to persist (e.g. with `@SceneStorage` or a file) for the next launch; holds no secrets.
    public func restorationData() -> Data? {
        try? state.snapshot.encoded()
    }
}
#endif
