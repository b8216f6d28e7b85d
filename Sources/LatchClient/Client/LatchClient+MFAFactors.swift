import Foundation

/// The signed-in user's second factor: an authenticator app (TOTP) and the recovery codes that stand in for it.
///
/// ```swift
/// let enrollment = try await latch.enrollTOTP()             // show enrollment.otpauthURI as a QR code
/// let codes = try await latch.activateTOTP(factorID: enrollment.factorID, code: typed)  // show the codes once
/// ```
///
/// Adding, removing and new recovery codes are privileged, like a password change: without a recent
/// re-authentication they throw `reauthenticationRequired`. For an account without a second factor yet that is the
/// usual one (password or mailed code, `acrValues` nil); once it has one, only the factor proves presence
/// (`acrValues` `"aal2"`: `reauthenticate(code:)` or `reauthenticate(recoveryCode:)`). Then call again.
extension LatchClient {
    /// The active factors and how many recovery codes are left.
    /// - Throws: `notSignedIn`, or the refusal that ended the session.
    public func mfaStatus() async throws(LatchError) -> MFAStatus {
        try await authorized(MFAStatusRequest())
    }

    /// Starts adding an authenticator app: a pending factor with a new secret, which replaces a pending one. Nothing
    /// changes for sign-in until `activateTOTP(factorID:code:)`.
    /// - Parameter name: what the factor is listed as (1 to 64 characters); nil for the server's ("Authenticator").
    /// - Throws: `reauthenticationRequired`, `invalidRequest` (the name), `rateLimited`, `notSignedIn`.
    public func enrollTOTP(name: String? = nil) async throws(LatchError) -> TOTPEnrollment {
        try await authorized(EnrollTOTPRequest(name: name))
    }

    /// Activates the pending authenticator with a code it shows, which proves the user's app has the secret. From
    /// now on sign-ins ask for a code, every other session of the user has ended, and this one counts as signed in
    /// with both factors: the answer's new access token is stored in place of the old one, which stops working
    /// (as after a re-authentication).
    /// - Returns: the ten recovery codes, each good for one sign-in without the app. Show them once, now: the server
    ///   keeps only their hashes, and nothing can show them again (`regenerateRecoveryCodes()` makes new ones).
    /// - Throws: `invalidMFACode` (wrong: the enrolment stays, try again), `factorNotFound` (expired, replaced by a
    ///   newer enrolment, active already, or ended by five wrong codes: enrol again), `rateLimited`, `notSignedIn`.
    public func activateTOTP(factorID: UUID, code: String) async throws(LatchError) -> [String] {
        let (answer, used) = try await authorizedAnswer(ActivateTOTPRequest(factorID: factorID, code: code))
        try replaceAccessToken(answer.accessToken, expiresAt: answer.accessTokenExpiresAt, of: used)
        return answer.recoveryCodes
    }

    /// Ten new recovery codes in place of all the old ones (used or not), for a user who lost them or used most.
    /// - Returns: the codes; show them once, as `activateTOTP` does.
    /// - Throws: `reauthenticationRequired`, `mfaNotEnabled` (no active factor), `rateLimited`, `notSignedIn`.
    public func regenerateRecoveryCodes() async throws(LatchError) -> [String] {
        try await authorized(RegenerateRecoveryCodesRequest()).recoveryCodes
    }

    /// Removes an authenticator, as `mfaStatus()` listed it. Without an active factor left, sign-ins ask for none.
    /// - Throws: `reauthenticationRequired`, `factorNotFound` (removed already, or not this user's), `notSignedIn`.
    public func removeTOTP(factorID: UUID) async throws(LatchError) {
        _ = try await authorized(RemoveTOTPRequest(factorID: factorID))
    }
}
