/// Every way an AuthCore flow can refuse a request. `code` is stable snake_case a client can switch on; `message`
/// is safe to show (it never holds a token, password, hash or whether an email is registered).
///
/// Suggested HTTP statuses (the mapping lives in LatchHTTP, not here) are noted on each case.
/// Errors thrown by the ports (database down, …) are not wrapped: they pass through unchanged (suggested 503).
public enum AuthError: Error, Hashable, Sendable {
    /// Not a usable email address. Suggested 422.
    case invalidEmail
    /// The password breaks the policy; the reason says which rule. Suggested 422.
    case weakPassword(WeakPasswordReason)
    /// Unknown email or wrong password: deliberately indistinguishable. Suggested 401.
    case invalidCredentials
    /// Correct password, but the email was never confirmed. Suggested 403.
    case emailNotConfirmed
    /// Correct password (or valid token), but an operator disabled the account. Suggested 403.
    case userDisabled
    /// The token is unknown, malformed or meant for another purpose. Suggested 400.
    case invalidToken
    /// The token's TTL has passed: ask for a new mail. Suggested 400.
    case tokenExpired
    /// The token was already redeemed (single use). Suggested 409.
    case tokenUsed
    /// The token was replaced before it was used: by a newer sign-up mail, a password change or a completed
    /// confirmation. Suggested 409.
    case tokenSuperseded
    /// A confirm link for an address that is confirmed already: nothing to do, and no session. Suggested 409.
    case alreadyConfirmed
    /// The address belongs to another account by now (a change of address lost a race). Suggested 409.
    case emailTaken
    /// A change of address to the address the account has already. Suggested 422.
    case emailUnchanged
    /// No such session of this user (unknown, or someone else's: the answer does not tell). Suggested 404.
    case sessionNotFound
    /// A typed code did not redeem anything: unknown address, wrong code, or a spent, expired or replaced record,
    /// deliberately indistinguishable. Suggested 400.
    case invalidCode
    /// Too many attempts, or sign-in lockout backoff. Whole seconds, at least 1. Suggested 429 + `Retry-After`.
    case rateLimited(retryAfter: Int)
    /// The access or refresh token is unknown or its session was revoked. Suggested 401.
    case invalidSession
    /// The access token (refresh it) or the refresh token (sign in again) has expired. Suggested 401.
    case sessionExpired
    /// A refresh token was presented twice: its whole family has been revoked. Suggested 401.
    case refreshTokenReused
    /// A bearer access token that is malformed, forged, signed by an unknown or revoked key, or for another
    /// issuer or audience. Shares its code with `invalidToken` (RFC 6750's `invalid_token`); suggested 401.
    case invalidAccessToken
    /// A privileged change (password, address, deletion) without proof of presence: the current password in the
    /// request, or a re-authentication of this session within `maxAge` seconds. Suggested 401 with RFC 9470's
    /// `insufficient_user_authentication` challenge.
    case reauthenticationRequired(maxAge: Int, acr: AssuranceLevel? = nil)
    /// The second-factor ticket is unknown, used, expired or ended by wrong codes: sign in again. Suggested 401.
    case invalidMFATicket
    /// A TOTP code or recovery code that proves nothing: wrong, malformed, of a step used already, or spent.
    /// Suggested 400.
    case invalidMFACode
    /// A password reset of an account with a second factor, without one. Suggested 400.
    case mfaRequired
    /// A second-factor request for an account without an active factor. Suggested 409.
    case mfaNotEnabled
    /// No such factor of this user (unknown, someone else's, expired or already active). Suggested 404.
    case factorNotFound
    /// The passkey challenge is unknown, used, expired, or was handed out for another purpose or user: ask for
    /// new options. Suggested 400.
    case invalidPasskeyChallenge
    /// The passkey response failed a WebAuthn check (which one is audited, never told). Suggested 400.
    case passkeyRejected
    /// No such passkey of this user. Suggested 404.
    case passkeyNotFound
    /// Removing this would leave the account no way to sign in. Suggested 409.
    case lastSignInMethod
    /// The provider sign-in nonce is unknown, used, expired, or not the one of `nonce_id`: ask for a new one.
    /// Suggested 400.
    case invalidNonce
    /// The provider's id_token failed a check, or does not carry the nonce (which check is audited, never told).
    /// Suggested 401.
    case invalidIDToken
    /// The provider did not verify the address of an identity Latch does not know, so it can neither be linked
    /// to an account nor make one. Suggested 403.
    case providerEmailUnverified
    /// The provider's keys could not be fetched and none are cached. Suggested 503.
    case providerUnavailable
    /// No such identity of this user. Suggested 404.
    case identityNotFound
    /// The locale is malformed or one there are no templates for. Suggested 422.
    case unsupportedLocale

    /// Stable machine-readable code.
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
        case .rateLimited: "rate_limited"
        case .invalidSession: "invalid_session"
        case .sessionExpired: "session_expired"
        case .refreshTokenReused: "refresh_token_reused"
        case .invalidAccessToken: "invalid_token"
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
        case .unsupportedLocale: "unsupported_locale"
        }
    }

    /// A human-readable message, safe to return to the client.
    public var message: String {
        switch self {
        case .invalidEmail: "That is not a valid email address."
        case .weakPassword(let reason): reason.message
        case .invalidCredentials: "The email or password is incorrect."
        case .emailNotConfirmed: "Confirm your email address before signing in."
        case .userDisabled: "This account has been disabled."
        case .invalidToken: "This link is not valid."
        case .tokenExpired: "This link has expired; request a new one."
        case .tokenUsed: "This link has already been used."
        case .tokenSuperseded: "This link was replaced by a newer mail or a password change; use the newest mail."
        case .alreadyConfirmed: "This email address is already confirmed; sign in instead."
        case .invalidCode: "This code is not valid. Check the newest mail, or ask for a new one."
        case .emailTaken: "Another account has this email address by now."
        case .emailUnchanged: "This is the account's email address already."
        case .sessionNotFound: "There is no such session."
        case .rateLimited(let seconds): "Too many attempts; try again in \(seconds) seconds."
        case .invalidSession: "The session is not valid; sign in again."
        case .sessionExpired: "The session has expired."
        case .refreshTokenReused: "This refresh token was already used; every session from it has been signed out."
        case .invalidAccessToken: "The access token is not valid; refresh the session or sign in again."
        case .reauthenticationRequired(_, .some(.aal2)):
            "Confirm it's you first: re-authenticate with a passkey, a code from your authenticator or a recovery code."
        case .reauthenticationRequired: "Confirm it's you first: send the current password, or re-authenticate."
        case .invalidMFATicket: "This sign-in attempt has ended; sign in again."
        case .invalidMFACode: "That code is not valid. Use the current code from your authenticator, or a recovery code."
        case .mfaRequired: "This account has two-step verification: send a code from the authenticator or a recovery code."
        case .mfaNotEnabled: "This account has no two-step verification."
        case .factorNotFound: "There is no such authenticator."
        case .invalidPasskeyChallenge: "This passkey request has ended; start again."
        case .passkeyRejected: "The passkey could not be verified."
        case .passkeyNotFound: "There is no such passkey."
        case .lastSignInMethod: "This is the account's last way to sign in; add another before removing it."
        case .invalidNonce: "This sign-in request has ended; start again."
        case .invalidIDToken: "The sign-in with the provider could not be verified."
        case .providerEmailUnverified: "The provider has not verified this account's email address."
        case .providerUnavailable: "The sign-in provider cannot be reached; try again later."
        case .identityNotFound: "There is no such linked sign-in."
        case .unsupportedLocale: "This language is not available."
        }
    }

    /// The policy rule's code for `weakPassword` (e.g. `password_too_short`), `nil` otherwise.
    public var reason: String? {
        if case .weakPassword(let reason) = self { return reason.rawValue }
        return nil
    }

    /// Seconds to wait for `rateLimited`, `nil` otherwise.
    public var retryAfter: Int? {
        if case .rateLimited(let seconds) = self { return seconds }
        return nil
    }
}
