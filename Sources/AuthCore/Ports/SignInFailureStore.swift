import Foundation

/// Consecutive failed sign-ins per email (`EmailAddress.key`, whether or not the account exists),
/// for lockout backoff. Shared by every instance.
public protocol SignInFailureStore: Sendable {
    /// The current count and last failure, `nil` if none is recorded.
    func signInFailures(emailKey: String) throws -> SignInFailures?

    /// Counts one failure at `at` and returns the new state, atomically. If the last recorded failure is older
    /// than `forgetBefore`, the count restarts at 1.
    func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures

    /// Forgets the failures (after a correct password).
    func resetSignInFailures(emailKey: String) throws
}
