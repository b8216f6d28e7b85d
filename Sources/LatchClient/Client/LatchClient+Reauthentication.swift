import Foundation

/// Proof that the signed-in user is at the device, for the changes a stolen session alone must not make: changing
/// the password or the address, deleting the account. Each of those takes the password in the request, or goes
/// without it for a while (`max_age`, 10 minutes by default) after one of these calls. Without either the server
/// answers `reauthenticationRequired(maxAge:)`: prompt, call one of these, and try the change again.
///
/// An account with a second factor proves presence with it only: the password in the request or a re-authentication
/// by password or mail is not enough, and the server says so with `reauthenticationRequired(…, acrValues: "aal2")`.
/// Ask for the authenticator's code (`reauthenticate(code:)`) or a recovery code (`reauthenticate(recoveryCode:)`).
/// The same holds for managing the factor itself (LatchClient+MFAFactors.swift).
///
/// The server answers a re-authentication with a new access token of the same session, which alone carries the
/// proof (the one used for the call is replaced at the server); the client puts it in place of the stored one.
/// The refresh token stays, and a later refresh keeps the proof.
extension LatchClient {
    /// Proves presence with the password.
    /// - Returns: until when privileged changes need no password (`reauthenticated_until`).
    /// - Throws: `invalidCredentials` (a wrong password; the session stays), `rateLimited`, `notSignedIn`.
    @discardableResult
    public func reauthenticate(password: String) async throws(LatchError) -> Date {
        try await reauthenticate(with: ReauthenticateRequest(password: password))
    }

    /// Mails the signed-in user an 8-digit code for `reauthenticate(emailCode:)`: the way for an account without a
    /// password (signed in by mail), or a user who forgot it. A newer code replaces the one before.
    /// - Throws: `rateLimited`, `notSignedIn`.
    public func requestReauthenticationCode() async throws(LatchError) {
        _ = try await authorized(ReauthenticationCodeRequest())
    }

    /// Proves presence with the code `requestReauthenticationCode()` mailed.
    /// - Returns: until when privileged changes need no password (`reauthenticated_until`).
    /// - Throws: `invalidCode` (wrong, expired, replaced by a newer one, or spent by wrong tries), `rateLimited`,
    ///   `notSignedIn`.
    @discardableResult
    public func reauthenticate(emailCode: String) async throws(LatchError) -> Date {
        try await reauthenticate(with: ReauthenticateRequest(emailCode: emailCode))
    }

    /// Proves presence with the authenticator app's current code: the proof an account with a second factor needs
    /// (`reauthenticationRequired` with `acrValues` `"aal2"`).
    /// - Returns: until when privileged changes need no further proof (`reauthenticated_until`).
    /// - Throws: `invalidMFACode` (wrong; the session stays), `mfaNotEnabled` (the account has no second factor: use
    ///   the password or a mailed code), `rateLimited`, `notSignedIn`.
    @discardableResult
    public func reauthenticate(code: String) async throws(LatchError) -> Date {
        try await reauthenticate(with: ReauthenticateRequest(code: code))
    }

    /// Proves presence with one of the recovery codes, for a user without their authenticator. The code is spent.
    /// - Returns: until when privileged changes need no further proof (`reauthenticated_until`).
    /// - Throws: `invalidMFACode` (wrong or used), `mfaNotEnabled`, `rateLimited`, `notSignedIn`.
    @discardableResult
    public func reauthenticate(recoveryCode: String) async throws(LatchError) -> Date {
        try await reauthenticate(with: ReauthenticateRequest(recoveryCode: recoveryCode))
    }

    private func reauthenticate(with request: ReauthenticateRequest) async throws(LatchError) -> Date {
        let (answer, used) = try await authorizedAnswer(request)
        try replaceAccessToken(answer.accessToken, expiresAt: answer.accessTokenExpiresAt, of: used)
        return answer.reauthenticatedUntil
    }
}
