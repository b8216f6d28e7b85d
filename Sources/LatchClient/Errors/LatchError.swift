/// Every way a `LatchClient` call can fail: one case per error code of the API (see openapi.yaml), and a few of
/// the client's own. Apps switch on the case; `code` is the API's snake_case code for logs.
public enum LatchError: Error, Hashable, Sendable {
    // MARK: Sign-up, sign-in and the links

    /// `invalid_email`: not a usable email address.
    case invalidEmail
    /// `weak_password`: the password breaks a rule; nil when the server named a rule this client does not know.
    case weakPassword(reason: WeakPasswordReason?)
    /// `invalid_credentials`: unknown email or wrong password, deliberately indistinguishable.
    case invalidCredentials
    /// `email_not_confirmed`: the password is right; the address must be confirmed first (`resendConfirmation`).
    case emailNotConfirmed
    /// `user_disabled`: an operator disabled the account. Ends the session when a session call meets it.
    case userDisabled
    /// `invalid_token`: the link's token is unknown or meant for something else (a sign-in link: or asked for by
    /// another app instance, whose secret this one does not hold); on a call with the session, the access token
    /// was refused as not Latch's (malformed, or signed by a key an operator revoked), which one refresh mends: the
    /// client refreshes and retries once before it reports this.
    case invalidToken
    /// `token_expired`: the link is too old; ask for a new mail.
    case tokenExpired
    /// `token_used`: the link was used already.
    case tokenUsed
    /// `token_superseded`: a newer mail or a password change replaced the link; use the newest mail.
    case tokenSuperseded
    /// `already_confirmed`: the address is confirmed already; sign in instead.
    case alreadyConfirmed
    /// `invalid_code`: the typed code did not work (wrong, used, expired, or five wrong tries spent it); check the
    /// newest mail or ask for a new one.
    case invalidCode
    // MARK: Account management

    /// `email_taken`: another account has the new address by now; the change did not happen.
    case emailTaken
    /// `email_unchanged`: the new address is the account's address already.
    case emailUnchanged
    /// `session_not_found`: no such session of this user (ended already, or never theirs).
    case sessionNotFound
    /// `unsupported_locale`: `setLocale(_:)` named a language the server has no templates for; the user's language
    /// did not change.
    case unsupportedLocale
    /// `reauthentication_required`: changing the password or the address, or deleting the account, without the
    /// password needs a re-authentication of this session within the last `maxAge` seconds (from the answer's
    /// `WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=…`; nil without one). Ask the
    /// user to prove it is them (`reauthenticate(password:)`, or `requestReauthenticationCode()` then
    /// `reauthenticate(emailCode:)`) and call again. The session stays: this is not a sign-out.
    ///
    /// `acrValues` is the challenge's `acr_values`: `"aal2"` when the account has a second factor, whose proof is
    /// then the only one accepted (`reauthenticate(code:)` or `reauthenticate(recoveryCode:)`; a password is not
    /// enough), and for the second-factor calls themselves; nil for an account without one. A passkey
    /// (`reauthenticate(withPasskey:challengeID:)`) proves presence with both factors, so it satisfies either.
    case reauthenticationRequired(maxAge: Int?, acrValues: String? = nil)

    /// `rate_limited`: too many attempts; `retryAfter` is the `Retry-After` header in seconds (nil without one).
    case rateLimited(retryAfter: Int?)

    // MARK: The second factor

    /// `invalid_mfa_ticket`: the sign-in's second step came too late (5 minutes), twice, or after five wrong codes:
    /// sign in again. The client forgets the ticket and reports signed out.
    case invalidMFATicket
    /// `invalid_mfa_code`: the authenticator's code or the recovery code is wrong (or the recovery code was used).
    /// Whatever waited for it (the sign-in's ticket, the enrolment) lives on: let the user type it again.
    case invalidMFACode
    /// `mfa_required`: resetting the password of an account with a second factor needs its code or a recovery code
    /// as well (`resetPassword(…, mfaCode:)` or `recoveryCode:`).
    case mfaRequired
    /// `mfa_not_enabled`: a second-factor proof or new recovery codes for an account that has no active factor.
    case mfaNotEnabled
    /// `factor_not_found`: no such factor of this user, or (activation) an enrolment that is no longer pending:
    /// expired, activated already, replaced by a newer one, or ended by five wrong codes. Enrol again.
    case factorNotFound

    // MARK: Passkeys

    /// `invalid_passkey_challenge`: the challenge of the options is unknown, used, expired (5 minutes), or was asked
    /// for something else (a sign-in's challenge to re-authenticate, another user's): ask for new options and let the
    /// platform sign again.
    case invalidPasskeyChallenge
    /// `passkey_rejected`: the passkey's answer failed a check (which one, the server keeps to itself): another
    /// server's passkey, one removed from the account, a signature that does not verify, a cloned authenticator.
    /// Offer the other ways to sign in.
    case passkeyRejected
    /// `passkey_not_found`: no such passkey of this user (removed already, or never theirs).
    case passkeyNotFound
    /// `last_sign_in_method`: removing this passkey, or unlinking this Apple ID (`unlinkIdentity(_:)`), would leave
    /// the account no way to sign in (no other passkey or linked identity, no password, and sign-in by mail off).
    /// Add a password or another passkey first.
    case lastSignInMethod

    // MARK: Sign in with Apple

    /// `invalid_nonce`: the nonce sent with the identity token is unknown, used, expired (5 minutes), or not the one
    /// of `nonce_id`. Ask for a new one (`appleSignInNonce()`) and let the user sign in with Apple again.
    case invalidNonce
    /// `invalid_id_token`: the identity token failed a check (which one, the server keeps to itself): not Apple's
    /// signature, another app's audience, expired, or its `nonce` claim is not the hash of the nonce sent. Start
    /// again with a new nonce, or offer the other ways to sign in.
    case invalidIDToken
    /// `provider_email_unverified` (403): Apple has not verified the address of an Apple ID the server does not know,
    /// so it neither links it to an account nor makes one. Offer the other ways to sign in.
    case providerEmailUnverified
    /// `provider_unavailable` (503): the server could not fetch Apple's keys to check the token; try again later,
    /// after `retryAfter` seconds if given, with a new nonce (`appleSignInNonce()`) and a new Apple sign-in: the
    /// client cannot tell whether this one's nonce was spent.
    case providerUnavailable(retryAfter: Int?)
    /// `identity_not_found`: no such linked identity of this user (unlinked already, or never theirs).
    case identityNotFound

    // MARK: Sessions (each ends the stored session and reports signed out)

    /// `invalid_session`: the session was ended (sign-out elsewhere, password reset, disabled) or is unknown.
    case invalidSession
    /// `session_expired`: the refresh token or the session's absolute lifetime ran out; sign in again.
    case sessionExpired
    /// `refresh_token_reused`: an already rotated refresh token was presented, so the server revoked the family.
    case refreshTokenReused
    /// No session is stored (never signed in, signed out, or ended by one of the three above).
    case notSignedIn

    // MARK: Sign-in by mail (the client's own: nothing was sent)

    /// No sign-in by mail is pending here for this link or code: this app instance did not ask for the mail
    /// (`requestEmailSignIn(email:)`; the mail may have been asked for on another device), asked for another
    /// address since, asked more than `PendingEmailSignIn.lifetime` ago, or completed it already. Ask for a new mail.
    case noPendingEmailSignIn
    /// The URL given to `completeEmailSignIn(url:parser:)` is not a sign-in link the app's parser accepts (another
    /// destination, or a link it refuses).
    case notASignInLink

    // MARK: Requests the server refused as malformed (a client or version mismatch)

    /// `invalid_request`: a field is missing, too long or of the wrong type; the message names it.
    case invalidRequest(message: String)
    /// `invalid_json`, `payload_too_large`, `unsupported_media_type`, `missing_token`, `not_found`,
    /// `method_not_allowed`: the request did not reach an endpoint this client expects. The code says which;
    /// `not_found` from `requestEmailSignIn(email:)` means the server does not offer sign-in by mail.
    case rejectedRequest(code: String)

    // MARK: The service

    /// `service_unavailable`, `not_ready`, `shutting_down` (503; the last from an instance that is stopping): try
    /// again later, after `retryAfter` seconds if given.
    case serviceUnavailable(retryAfter: Int?)
    /// `overloaded` (503): the server is busy; retry shortly, after `retryAfter` seconds if given.
    case overloaded(retryAfter: Int?)
    /// A code this client does not know (a newer server), with the server's message.
    case unknownCode(code: String, message: String)
    /// An answer that is not the API's JSON (a proxy's error page, a truncated body).
    case invalidResponse(String)
    /// The request did not get an answer (no network, timeout, TLS failure, cancelled).
    case network(String)
    /// The `SessionStore` failed to read or write. The session in memory is still used.
    case storage(String)

    /// The API's snake_case code, or the client's own for the client-side cases.
    public var code: String {
        switch self {
        case .invalidEmail: "invalid_email"
        case .weakPassword: "weak_password"
        case .invalidCredentials: "invalid_credentials"
        case .emailNotConfirmed: "email_not_confirmed"
        case .userDisabled: "user_disabled"
        case .invalidToken: "invalid_token"
        case .tokenExpired: "token_expired"
        case .tokenUsed: "token_used"
        case .tokenSuperseded: "token_superseded"
        case .alreadyConfirmed: "already_confirmed"
        case .invalidCode: "invalid_code"
        case .emailTaken: "email_taken"
        case .emailUnchanged: "email_unchanged"
        case .sessionNotFound: "session_not_found"
        case .unsupportedLocale: "unsupported_locale"
        case .reauthenticationRequired: "reauthentication_required"
        case .invalidMFATicket: "invalid_mfa_ticket"
        case .invalidMFACode: "invalid_mfa_code"
        case .mfaRequired: "mfa_required"
        case .mfaNotEnabled: "mfa_not_enabled"
        case .factorNotFound: "factor_not_found"
        case .invalidPasskeyChallenge: "invalid_passkey_challenge"
        case .passkeyRejected: "passkey_rejected"
        case .passkeyNotFound: "passkey_not_found"
        case .lastSignInMethod: "last_sign_in_method"
        case .invalidNonce: "invalid_nonce"
        case .invalidIDToken: "invalid_id_token"
        case .providerEmailUnverified: "provider_email_unverified"
        case .providerUnavailable: "provider_unavailable"
        case .identityNotFound: "identity_not_found"
        case .noPendingEmailSignIn: "no_pending_email_sign_in"
        case .notASignInLink: "not_a_sign_in_link"
        case .rateLimited: "rate_limited"
        case .invalidSession: "invalid_session"
        case .sessionExpired: "session_expired"
        case .refreshTokenReused: "refresh_token_reused"
        case .notSignedIn: "not_signed_in"
        case .invalidRequest: "invalid_request"
        case .rejectedRequest(let code), .unknownCode(let code, _): code
        case .serviceUnavailable: "service_unavailable"
        case .overloaded: "overloaded"
        case .invalidResponse: "invalid_response"
        case .network: "network"
        case .storage: "storage"
        }
    }

    /// Seconds to wait before trying again, when the server said (`Retry-After`).
    public var retryAfter: Int? {
        switch self {
        case .rateLimited(let seconds), .serviceUnavailable(let seconds), .overloaded(let seconds),
             .providerUnavailable(let seconds): seconds
        default: nil
        }
    }

    /// Whether the server said the session is over, so the client forgets it and reports signed out.
    public var endsSession: Bool {
        switch self {
        case .invalidSession, .sessionExpired, .refreshTokenReused, .userDisabled: true
        default: false
        }
    }

    /// A 401 on a bearer call: the access token expired, its session changed, or its signing key was revoked; a
    /// refresh tells which (and gets a token signed with the current key).
    var rejectsAccessToken: Bool { self == .invalidSession || self == .sessionExpired || self == .invalidToken }
}

extension LatchError: CustomStringConvertible {
    /// The code and its detail; never a token or a password (the client puts neither into an error).
    public var description: String {
        switch self {
        case .weakPassword(let reason): "weak_password (\(reason?.rawValue ?? "unknown rule"))"
        case .rateLimited(let seconds), .serviceUnavailable(let seconds), .overloaded(let seconds),
             .providerUnavailable(let seconds):
            seconds.map { "\(code) (retry after \($0) s)" } ?? code
        case .reauthenticationRequired(let maxAge, let acrValues):
            switch (acrValues, maxAge) {
            case let (acr?, seconds?): "\(code) (\(acr), within \(seconds) s)"
            case let (acr?, nil): "\(code) (\(acr))"
            case let (nil, seconds?): "\(code) (within \(seconds) s)"
            case (nil, nil): code
            }
        case .invalidRequest(let message), .unknownCode(_, let message): "\(code): \(message)"
        case .invalidResponse(let detail), .network(let detail), .storage(let detail): "\(code): \(detail)"
        default: code
        }
    }
}
