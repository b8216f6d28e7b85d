import Foundation

/// Passkeys (WebAuthn): signing in without a password or a second step, re-authenticating, and the user's list.
///
/// Each ceremony is two calls around the platform's passkey sheet: the options (a challenge and what the platform
/// needs), then the platform's answer with the challenge's id. On Apple platforms PasskeyAuthorization.swift turns
/// the options into an `ASAuthorizationController` request and its result back into the JSON the server takes:
///
/// ```swift
/// let options = try await latch.passkeyAuthenticationOptions()
/// // ASAuthorizationController(authorizationRequests: [try options.platformRequest()]) … its delegate gets:
/// let credential = AuthenticationResponseJSON(assertion)  // ASAuthorizationPlatformPublicKeyCredentialAssertion
/// try await latch.signInWithPasskey(challengeID: options.challengeID, credential: credential)
/// ```
///
/// A passkey is both factors at once (the device, and the user's biometrics or PIN it checked), so its sign-in asks
/// for no second step and its session counts as `aal2`; its re-authentication satisfies an account with a second
/// factor too. The app must be associated with the server's domain (`webcredentials:` in Apple's associated domains,
/// `get_login_creds` in Android's asset links) for the platform to use passkeys of that RP ID: docs/app-client.md.
extension LatchClient {
    // MARK: - Registration

    /// Starts adding a passkey to the signed-in account: a challenge and the options for the platform's registration
    /// sheet, which lists the user's passkeys as excluded (one authenticator is not registered twice).
    ///
    /// Privileged, like adding an authenticator: without a recent re-authentication this throws
    /// `reauthenticationRequired` (with `acrValues` `"aal2"` for an account with a second factor; a passkey
    /// re-authentication counts). Prove presence and call again.
    /// - Throws: `reauthenticationRequired`, `rateLimited`, `notSignedIn`.
    public func passkeyRegistrationOptions() async throws(LatchError) -> PasskeyRegistrationOptions {
        try await authorized(PasskeyRegistrationOptionsRequest())
    }

    /// Adds the passkey the platform made with `passkeyRegistrationOptions()`'s options. From now on it signs in
    /// (`signInWithPasskey`) and proves presence (`reauthenticate(withPasskey:challengeID:)`); the user is mailed.
    /// - Parameters:
    ///   - challengeID: the options' `challengeID`.
    ///   - credential: the platform's answer (`RegistrationResponseJSON(registration)` on Apple platforms).
    ///   - name: what the passkey is listed as (1 to 64 characters); nil for the server's ("Passkey").
    /// - Returns: the passkey as `passkeys()` lists it.
    /// - Throws: `invalidPasskeyChallenge` (expired, used, or another session's: ask for new options),
    ///   `passkeyRejected` (the credential failed a check), `invalidRequest` (the name, or a malformed credential),
    ///   `rateLimited`, `notSignedIn`.
    @discardableResult
    public func registerPasskey(challengeID: UUID, credential: RegistrationResponseJSON, name: String? = nil)
        async throws(LatchError) -> Passkey {
        try await authorized(RegisterPasskeyRequest(challengeID: challengeID, credential: credential, name: name))
    }

    // MARK: - Sign-in and re-authentication

    /// A challenge for signing in with a passkey, and the options for the platform's sheet (or for AutoFill's
    /// conditional request: ask for it when the sign-in screen appears). Needs no session and names no account: the
    /// platform offers the user's passkeys for the server's RP ID, and the server learns who it is from the answer.
    /// - Throws: `rateLimited`, and the service's errors.
    public func passkeyAuthenticationOptions() async throws(LatchError) -> PasskeyAuthenticationOptions {
        try await api.send(PasskeyAuthenticationOptionsRequest())
    }

    /// A challenge for proving presence on this session with a passkey (`reauthenticate(withPasskey:challengeID:)`):
    /// the same options as a sign-in's, bound to this session's user. A sign-in's challenge does not do.
    /// - Throws: `rateLimited`, `notSignedIn`.
    public func passkeyReauthenticationOptions() async throws(LatchError) -> PasskeyAuthenticationOptions {
        try await authorized(PasskeyAuthenticationOptionsRequest())
    }

    /// Signs in with the passkey the platform signed `passkeyAuthenticationOptions()`'s challenge with: the session
    /// and the device token are stored and `.signedIn` reported, as after a password's sign-in. There is no second
    /// step; a sign-in waiting for its second factor is over with it.
    /// - Parameters:
    ///   - challengeID: the options' `challengeID`.
    ///   - credential: the platform's answer (`AuthenticationResponseJSON(assertion)` on Apple platforms).
    /// - Throws: `invalidPasskeyChallenge` (expired or used: ask for new options), `passkeyRejected` (not a passkey of
    ///   any account here, or removed, or its check failed: offer the other ways to sign in), `userDisabled`,
    ///   `rateLimited`.
    @discardableResult
    public func signInWithPasskey(challengeID: UUID, credential: AuthenticationResponseJSON)
        async throws(LatchError) -> User {
        // Not sent (the endpoint takes none); read only to tell whether the answer's token is new.
        let deviceToken = try? store.loadDeviceToken()
        let answer = try await api.send(PasskeySignInRequest(challengeID: challengeID, credential: credential))
        return try signedIn(answer, presented: deviceToken)
    }

    /// Proves presence with a passkey of the signed-in user, which counts as both factors: it satisfies
    /// `reauthenticationRequired` whatever its `acrValues`. The new access token is stored in place of the old one,
    /// as after the other re-authentications.
    /// - Parameters:
    ///   - credential: the platform's answer to `passkeyReauthenticationOptions()`'s options.
    ///   - challengeID: those options' `challengeID`.
    /// - Returns: until when privileged changes need no further proof (`reauthenticated_until`).
    /// - Throws: `invalidPasskeyChallenge` (expired, used, a sign-in's, or another session's: ask for new options),
    ///   `passkeyRejected` (not a passkey of this user, or its check failed; the session stays), `rateLimited`,
    ///   `notSignedIn`.
    @discardableResult
    public func reauthenticate(withPasskey credential: AuthenticationResponseJSON, challengeID: UUID)
        async throws(LatchError) -> Date {
        let request = ReauthenticateRequest(passkey: credential, challengeID: challengeID)
        let (answer, used) = try await authorizedAnswer(request)
        try replaceAccessToken(answer.accessToken, expiresAt: answer.accessTokenExpiresAt, of: used)
        return answer.reauthenticatedUntil
    }

    // MARK: - Management

    /// The signed-in user's passkeys, oldest first.
    /// - Throws: `notSignedIn`, or the refusal that ended the session.
    public func passkeys() async throws(LatchError) -> [Passkey] {
        try await authorized(PasskeysRequest()).passkeys
    }

    /// Renames one of the user's passkeys, as `passkeys()` listed it. Not privileged: the name is only a label.
    /// - Parameter name: 1 to 64 characters.
    /// - Returns: the passkey with its new name.
    /// - Throws: `passkeyNotFound`, `invalidRequest` (the name), `notSignedIn`.
    @discardableResult
    public func renamePasskey(id: UUID, name: String) async throws(LatchError) -> Passkey {
        try await authorized(RenamePasskeyRequest(id: id, name: name))
    }

    /// Removes one of the user's passkeys from the account (the platform keeps its copy, which no longer signs in:
    /// suggest the user deletes it in the passwords app too). Privileged, as `passkeyRegistrationOptions()`.
    /// - Throws: `reauthenticationRequired`, `passkeyNotFound` (removed already, or not this user's),
    ///   `lastSignInMethod` (the account would have no way left to sign in), `notSignedIn`.
    public func deletePasskey(id: UUID) async throws(LatchError) {
        _ = try await authorized(DeletePasskeyRequest(id: id))
    }
}
