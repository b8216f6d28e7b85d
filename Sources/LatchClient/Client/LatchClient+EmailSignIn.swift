import DeepLinkRouting
import Foundation

/// Sign-in without a password: the server mails a `signIn` link and an 8-digit code, which only the app instance
/// that asked can redeem, with the secret it kept (`EmailSignInBinding`, `PendingEmailSignIn`).
///
/// ```swift
/// try await latch.requestEmailSignIn(email: email)               // then "check your mail"
/// try await latch.completeEmailSignIn(email: email, code: code)  // or the link, through handle(_:)
/// ```
///
/// One attempt is pending at a time, in the `SessionStore`: it survives a relaunch and a sign-out, and is dropped
/// once it signed in, once the server says its mail can no longer sign in (`tokenUsed`, `tokenExpired`), or
/// `PendingEmailSignIn.lifetime` after the latest request. Asking again for the same address within that time
/// reuses its secret: the server mails an address at most once a minute and answers the same either way, so a
/// new secret would leave the mail already on its way unusable. Asking for another address replaces the attempt.
extension LatchClient {
    /// Mails a sign-in link and code to `email` if it has an account; the answer is the same if it has none, so
    /// this cannot tell who is registered. The attempt is saved before the request goes, so a mail whose answer
    /// was lost (no network) still completes.
    /// - Throws: `invalidEmail`, `rateLimited(retryAfter:)`, `rejectedRequest(code: "not_found")` (the server does
    ///   not offer sign-in by mail), `storage` (the attempt could not be saved: nothing was sent).
    public func requestEmailSignIn(email: String) async throws(LatchError) {
        let email = Self.typed(email)
        let attempt = try startEmailSignIn(for: email)
        let binding = EmailSignInBinding.binding(for: attempt.bindingSecret)
        _ = try await api.send(EmailSignInRequest(email: email, binding: binding))
    }

    /// The address of the sign-in by mail pending here while it can still complete, to show "check your mail"
    /// (and the code field) again after a relaunch; nil without one.
    public var pendingEmailSignInAddress: String? {
        (try? store.loadPendingEmailSignIn()).flatMap { $0.isLive(at: now()) ? $0.email : nil }
    }

    /// Completes the pending sign-in by mail with the token of its `signIn` link (`handle(_:)` does this for a
    /// link the app was opened with). Signs in as `signIn(email:password:)` does: the session and the device token
    /// are stored, and `authStateChanges()` reports the user; or, for an account with a second factor, answers
    /// `.mfaRequired` (the attempt is spent either way).
    /// - Throws: `noPendingEmailSignIn` (nothing sent), `invalidToken` (unknown, or asked for by another app
    ///   instance or device), `tokenExpired`, `tokenUsed`, `tokenSuperseded` (a newer mail replaced it: open the
    ///   newest; the attempt stays for it), `userDisabled`, `rateLimited`.
    @discardableResult
    public func completeEmailSignIn(token: String) async throws(LatchError) -> SignInResult {
        let attempt = try completableEmailSignIn()
        let secret = EmailSignInBinding.encoded(attempt.bindingSecret)
        return try await completeEmailSignIn(VerifyEmailSignInRequest(token: token, bindingSecret: secret), attempt)
    }

    /// Completes the pending sign-in by mail with the code from the mail, typed with the address it went to: for
    /// a mail read on another device, or a link a mail scanner opened first.
    /// - Throws: `noPendingEmailSignIn` (none, or it was asked for another address: nothing sent), `invalidCode`
    ///   (wrong, expired or spent by wrong tries; the attempt stays, so a right code still works), `tokenUsed`,
    ///   `userDisabled`, `rateLimited`.
    @discardableResult
    public func completeEmailSignIn(email: String, code: String) async throws(LatchError) -> SignInResult {
        let email = Self.typed(email)
        let attempt = try completableEmailSignIn(for: email)
        let secret = EmailSignInBinding.encoded(attempt.bindingSecret)
        return try await completeEmailSignIn(
            VerifyEmailSignInRequest(email: email, code: code, bindingSecret: secret), attempt)
    }

    /// Completes the pending sign-in by mail with a `signIn` link as the app received it, read with the app's
    /// `parser` (the client itself knows neither the app's scheme nor its link base).
    /// - Throws: `notASignInLink` (another link, or one `parser` refuses: nothing sent), and what
    ///   `completeEmailSignIn(token:)` throws.
    @discardableResult
    public func completeEmailSignIn(url: URL, parser: DeepLinkParser) async throws(LatchError) -> SignInResult {
        guard case .signIn(let token)? = parser.parse(url).link else { throw .notASignInLink }
        return try await completeEmailSignIn(token: token)
    }

    // MARK: - The pending attempt

    /// The attempt a new request goes with, saved before it goes: the pending one for the same address if it is
    /// still live (its secret reused, its time moved on), else one with a new secret.
    private func startEmailSignIn(for email: String) throws(LatchError) -> PendingEmailSignIn {
        let now = now()
        // An unreadable attempt counts as none; the new one replaces it.
        let reusable = (try? store.loadPendingEmailSignIn())
            .flatMap { $0.isFor(email) && $0.isLive(at: now) ? $0 : nil }
        let attempt = PendingEmailSignIn(
            email: email, bindingSecret: reusable?.bindingSecret ?? EmailSignInBinding.makeSecret(), requestedAt: now)
        try persist { try $0.savePendingEmailSignIn(attempt) }
        return attempt
    }

    /// The pending attempt if it can complete now, for `email` when given; an expired one is dropped.
    private func completableEmailSignIn(for email: String? = nil) throws(LatchError) -> PendingEmailSignIn {
        guard let attempt = try persist({ try $0.loadPendingEmailSignIn() }) else { throw .noPendingEmailSignIn }
        guard attempt.isLive(at: now()) else {
            dropPendingEmailSignIn(attempt)
            throw .noPendingEmailSignIn
        }
        if let email, !attempt.isFor(email) { throw .noPendingEmailSignIn }
        return attempt
    }

    /// Redeems `attempt`'s mail: signs in (or waits for the second factor) and drops the attempt, or drops it when
    /// the server says its mail can no longer sign in. `tokenSuperseded` keeps it: the newer mail that replaced this
    /// one was asked for with the same secret if it was asked for here. Other refusals keep it too (a mistyped code,
    /// another device's link).
    private func completeEmailSignIn(_ request: VerifyEmailSignInRequest, _ attempt: PendingEmailSignIn)
        async throws(LatchError) -> SignInResult {
        // Not sent (the endpoint takes none); read only to tell whether the answer's token is new.
        let deviceToken = try? store.loadDeviceToken()
        let answer: FirstFactorAnswer
        do throws(LatchError) {
            answer = try await api.send(request)
        } catch let error where error == .tokenUsed || error == .tokenExpired {
            dropPendingEmailSignIn(attempt)
            throw error
        }
        dropPendingEmailSignIn(attempt)
        return try signedIn(answer, presented: deviceToken)
    }

    /// Forgets `attempt`, unless a request replaced it while its redemption was in flight. A store that fails to
    /// forget it is not reported: the attempt is spent or expired at the server, and expires here too.
    private func dropPendingEmailSignIn(_ attempt: PendingEmailSignIn) {
        guard (try? store.loadPendingEmailSignIn())?.bindingSecret == attempt.bindingSecret else { return }
        try? store.clearPendingEmailSignIn()
    }
}
