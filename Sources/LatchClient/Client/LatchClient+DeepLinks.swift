import DeepLinkRouting

extension LatchClient {
    /// Completes what an auth link asks for: a `confirmAuth` link is confirmed (and the user signed in, which
    /// `authStateChanges()` reports); a `signIn` link completes the sign-in by mail pending on this device (and
    /// signs in, or for an account with a second factor answers `.mfaRequired`: then `completeMFA`); a
    /// `resetPassword` or `acceptInvite` link hands its token back for the new-password screen (the invitation is
    /// accepted with the password: `acceptInvite(token:password:)`); a `confirmEmailChange` link makes the
    /// new address the account's. Other routes need nothing from the client.
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     navigation.open(url: url)
    ///     if let route = parser.parse(url).route { Task { try await latch.handle(route) } }
    /// }
    /// ```
    /// - Throws: what `confirm(token:)`, `completeEmailSignIn(token:)` (`noPendingEmailSignIn` when the mail was
    ///   not asked for here, or too long ago) and `confirmEmailChange(token:)` throw.
    @discardableResult
    public func handle(_ route: DeepLinkRoute) async throws(LatchError) -> AuthLinkOutcome {
        switch route.link {
        case .confirmAuth(let token):
            .signedIn(try await confirm(token: token))
        case .resetPassword(let token):
            .resetPassword(token: token)
        case .confirmEmailChange(let token):
            .emailChanged(try await confirmEmailChange(token: token))
        case .signIn(let token):
            AuthLinkOutcome(try await completeEmailSignIn(token: token))
        case .acceptInvite(let token):
            .acceptInvite(token: token)
        case .home, .profile, .itemList, .itemDetail:
            .notAnAuthLink
        }
    }
}
