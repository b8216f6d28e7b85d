import Foundation

/// The second step of a sign-in, for an account with a second factor (an authenticator app, and its recovery codes).
///
/// ```swift
/// switch try await latch.signIn(email: email, password: password) {   // or completeEmailSignIn, or handle(_:)
/// case .signedIn: break                                               // the navigation goes home
/// case .mfaRequired(let ticket, _):                                   // the navigation shows .secondFactor
///     try await latch.completeMFA(ticket: ticket, code: code)         // or recoveryCode:
/// }
/// ```
///
/// A right first factor then creates no session and stores nothing: the server answers a ticket, which the client
/// keeps in memory only (`pendingMFA`), reporting `secondFactorRequired` on `authStateChanges()`. The second step
/// signs in exactly as a sign-in without a second factor does (the session and the device token stored,
/// `signedIn` reported). The sign-in waits until the second step succeeds, the ticket expires (5 minutes) or the
/// server ends it (five wrong codes), `signOut()` gives it up, or another sign-in replaces it; a relaunch forgets it.
extension LatchClient {
    /// The sign-in waiting here for its second factor while its ticket is live, for the second-factor screen (the
    /// navigation's `.secondFactor` root carries nothing); nil without one, or once expired: sign in again.
    public var pendingMFA: (ticket: MFATicket, methods: [MFAMethod])? {
        guard let pending = pendingSecondFactor, pending.ticket.isLive(at: now()) else { return nil }
        return pending
    }

    /// Completes the sign-in waiting for its second factor with the authenticator app's current code.
    /// - Parameter ticket: from `SignInResult.mfaRequired` (or `pendingMFA`): the sign-in pending here.
    /// - Throws: `invalidMFACode` (wrong: the ticket lives on, let the user type again), `invalidMFATicket` (expired,
    ///   ended by five wrong codes, or not the sign-in pending here: sign in again; reported signed out),
    ///   `rateLimited`, `userDisabled`.
    @discardableResult
    public func completeMFA(ticket: MFATicket, code: String) async throws(LatchError) -> User {
        try await completeMFA(MFASignInRequest(ticket: ticket.value, code: code), ticket)
    }

    /// Completes the sign-in waiting for its second factor with one of the account's recovery codes (the
    /// authenticator is lost, or not at hand). The code is spent.
    /// - Throws: as `completeMFA(ticket:code:)`; `invalidMFACode` also for a recovery code used before.
    @discardableResult
    public func completeMFA(ticket: MFATicket, recoveryCode: String) async throws(LatchError) -> User {
        try await completeMFA(MFASignInRequest(ticket: ticket.value, recoveryCode: recoveryCode), ticket)
    }

    /// Sends the second step of the sign-in pending with `ticket`. Nothing is sent for a ticket that is not the
    /// pending one or has expired here (the server would refuse it). A refusal that ends the ticket ends the waiting
    /// sign-in; other refusals keep it, so a right code still works.
    private func completeMFA(_ request: MFASignInRequest, _ ticket: MFATicket) async throws(LatchError) -> User {
        guard pendingSecondFactor?.ticket == ticket else { throw .invalidMFATicket }
        guard ticket.isLive(at: now()) else {
            abandonSecondFactor()
            throw .invalidMFATicket
        }
        // Not sent (the endpoint takes none); read only to tell whether the answer's token is new.
        let deviceToken = try? store.loadDeviceToken()
        let answer: SessionAnswer
        do throws(LatchError) {
            answer = try await api.send(request)
        } catch let error where error == .invalidMFATicket || error == .userDisabled {
            if pendingSecondFactor?.ticket == ticket { abandonSecondFactor() }
            throw error
        }
        guard pendingSecondFactor?.ticket == ticket else {
            // Given up (`signOut()`) or replaced by another sign-in while the answer was on its way: the user no
            // longer wants this session. It is ended at the server, as far as it can be, rather than left unused.
            _ = try? await api.send(SignOutRequest(scope: .local), bearer: answer.session.accessToken)
            throw .invalidMFATicket
        }
        return try signedIn(answer, presented: deviceToken)
    }
}
