import Foundation

/// Sign in with Apple: signing in with the identity token Apple's sheet gives, and the user's linked identities.
///
/// A sign-in is a nonce from the server around Apple's sheet: the sheet gets the nonce's hash, Apple signs a token
/// carrying it, and the server takes the token with the nonce itself. On Apple platforms AppleIDAuthorization.swift
/// sets the request up and reads Apple's credential:
///
/// ```swift
/// let nonce = try await latch.appleSignInNonce()   // ahead of the tap: SignInWithAppleButton's onRequest is sync
/// // SignInWithAppleButton(.signIn) { nonce.configure($0) } onCompletion: { … its ASAuthorization gives:
/// let credential = try AppleIDCredential(appleIDCredential)   // ASAuthorizationAppleIDCredential
/// try await latch.signInWithApple(credential, nonce: nonce)
/// ```
///
/// The first sign-in with an Apple ID makes or links the account, as the server decides; Apple gives the user's
/// name only then, so the credential's name goes along (later ones have none). The answer is a password sign-in's:
/// the session, or for an account with a second factor `.mfaRequired` and `completeMFA`. The server may have Sign in
/// with Apple off: then `appleSignInNonce()` throws `rejectedRequest(code: "not_found")`, and the app hides the
/// button. docs/app-client.md says what the app and the server need configured.
extension LatchClient {
    // MARK: - Sign-in

    /// A nonce for one Sign in with Apple, and its hash for Apple's request. Needs no session and names no account.
    /// Ask for it before the user taps the button, and for a new one after each try or once `expiresIn` passed.
    /// - Throws: `rejectedRequest(code: "not_found")` (the server has Sign in with Apple off), `rateLimited`, and the
    ///   service's errors.
    public func appleSignInNonce() async throws(LatchError) -> AppleSignInNonce {
        try await api.send(AppleSignInNonceRequest())
    }

    /// Signs in with the identity token Apple gave for `appleSignInNonce()`'s nonce: signed in, the session and the
    /// device token are stored and `.signedIn` reported, as after a password's sign-in; for an account with a second
    /// factor nothing is stored, `.secondFactorRequired` is reported and the answer is `.mfaRequired`.
    /// - Parameters:
    ///   - idToken: `ASAuthorizationAppleIDCredential.identityToken`, as text (a JWS).
    ///   - nonce: the nonce itself (`AppleSignInNonce.nonce`), not its hash, which went to Apple.
    ///   - nonceID: its `nonceID`.
    ///   - authorizationCode: `ASAuthorizationAppleIDCredential.authorizationCode`, as text: the server redeems it
    ///     with Apple to revoke the link when the account is deleted.
    ///   - givenName, familyName: the user's name, which Apple gives on the first authorization only; nil (or
    ///     blank) for none. Spaces and newlines around them are dropped.
    /// - Throws: `invalidNonce` (unknown, used, expired, or not `nonceID`'s: ask for a new one), `invalidIDToken`
    ///   (the token failed a check: start again, or sign in another way), `userDisabled`, `providerUnavailable`,
    ///   `rejectedRequest(code: "not_found")` (Sign in with Apple is off), `invalidRequest`, `rateLimited`.
    @discardableResult
    public func signInWithApple(idToken: String, nonce: String, nonceID: UUID, authorizationCode: String? = nil,
                                givenName: String? = nil, familyName: String? = nil)
        async throws(LatchError) -> SignInResult {
        // Not sent (the endpoint takes none); read only to tell whether the answer's token is new.
        let deviceToken = try? store.loadDeviceToken()
        let request = AppleSignInRequest(
            idToken: idToken, nonceID: nonceID, nonce: nonce, authorizationCode: authorizationCode,
            givenName: Self.name(givenName), familyName: Self.name(familyName))
        return try signedIn(try await api.send(request), presented: deviceToken)
    }

    /// `signInWithApple(idToken:nonce:nonceID:…)` with the nonce as `appleSignInNonce()` gave it.
    @discardableResult
    public func signInWithApple(idToken: String, nonce: AppleSignInNonce, authorizationCode: String? = nil,
                                givenName: String? = nil, familyName: String? = nil)
        async throws(LatchError) -> SignInResult {
        try await signInWithApple(idToken: idToken, nonce: nonce.nonce, nonceID: nonce.nonceID,
                                  authorizationCode: authorizationCode, givenName: givenName, familyName: familyName)
    }

    /// `signInWithApple(idToken:nonce:nonceID:…)` with what Apple's credential carries (`AppleIDCredential(_:)` of
    /// an `ASAuthorizationAppleIDCredential` on Apple platforms).
    @discardableResult
    public func signInWithApple(_ credential: AppleIDCredential, nonce: AppleSignInNonce)
        async throws(LatchError) -> SignInResult {
        try await signInWithApple(idToken: credential.identityToken, nonce: nonce,
                                  authorizationCode: credential.authorizationCode, givenName: credential.givenName,
                                  familyName: credential.familyName)
    }

    /// A name part as sent: trimmed, and nil when nothing is left (the server takes no empty name).
    static func name(_ part: String?) -> String? {
        guard let trimmed = part?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    // MARK: - Management

    /// The provider accounts that sign in to the signed-in user's account (Apple IDs), oldest first.
    /// - Throws: `notSignedIn`, or the refusal that ended the session.
    public func identities() async throws(LatchError) -> [LinkedIdentity] {
        try await authorized(LinkedIdentitiesRequest()).identities
    }

    /// Unlinks one of the user's identities, as `identities()` listed it: it no longer signs in (suggest the user
    /// also stops using the Apple ID with the app in Settings). Privileged, as removing a passkey: without a recent
    /// re-authentication this throws `reauthenticationRequired`; prove presence and call again.
    /// - Throws: `reauthenticationRequired`, `identityNotFound` (unlinked already, or not this user's),
    ///   `lastSignInMethod` (the account would have no way left to sign in), `notSignedIn`.
    public func unlinkIdentity(_ id: UUID) async throws(LatchError) {
        _ = try await authorized(UnlinkIdentityRequest(id: id))
    }
}
