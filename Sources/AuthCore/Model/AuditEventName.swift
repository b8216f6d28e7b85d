import Foundation

/// What happened; the raw value is stored in `audit_log.event`.
public enum AuditEventName: String, Hashable, Sendable, Codable, CaseIterable {
    case signUp = "sign_up"
    case signUpExistingEmail = "sign_up_existing_email"
    /// A sign-up for an address whose account is unconfirmed: its confirm links were replaced by a
    /// choose-your-password link, so no password typed by someone else can be confirmed.
    case signUpContested = "sign_up_contested"
    case confirmationResent = "confirmation_resent"
    case emailConfirmed = "email_confirmed"
    case signInSucceeded = "sign_in_succeeded"
    case signInFailed = "sign_in_failed"
    case refreshTokenReused = "refresh_token_reused"
    /// A refresh token of a session that was already ended (sign-out, reset, disable): a stale client.
    case revokedRefreshTokenPresented = "revoked_refresh_token_presented"
    case sessionRevoked = "session_revoked"
    case passwordResetRequested = "password_reset_requested"
    case passwordReset = "password_reset"
    /// A signed-in user changed the password (with the current one).
    case passwordChanged = "password_changed"
    /// A signed-in user asked to move the account to another address.
    case emailChangeRequested = "email_change_requested"
    /// The account's address changed (the new mailbox confirmed, or an operator set it).
    case emailChanged = "email_changed"
    /// The user deleted the account; the row keeps the user id, no address.
    case accountDeleted = "account_deleted"
    /// A password check of a signed-in user (change of password or address, deletion) failed.
    case reauthenticationFailed = "reauthentication_failed"
    /// Sign-in by mail was asked for an account (resolved from the queued request; its time is the request's).
    case emailSignInRequested = "email_sign_in_requested"
    /// A sign-in-by-mail record signed in (link or code).
    case emailSignInSucceeded = "email_sign_in_succeeded"
    /// A sign-in link was refused, or a right code came with a secret that is not the asking instance's.
    case emailSignInFailed = "email_sign_in_failed"
    /// A session proved presence again (password or mailed code) for privileged changes.
    case reauthenticated
    /// A re-authentication code was mailed to a signed-in session's user.
    case reauthenticationCodeSent = "reauthentication_code_sent"
    /// A TOTP enrolment began (the factor is pending until a code activates it).
    case secondFactorEnrolmentStarted = "mfa_enrolment_started"
    /// A TOTP factor became active (the user's other sessions ended).
    case secondFactorActivated = "mfa_activated"
    /// The user removed a factor.
    case secondFactorRemoved = "mfa_removed"
    /// An operator removed every factor and recovery code of the user (latchctl mfa reset).
    case secondFactorReset = "mfa_reset"
    /// The user's recovery codes were replaced by a new set.
    case recoveryCodesReplaced = "recovery_codes_replaced"
    /// A correct first factor of a user with a second factor: a ticket, no session.
    case secondFactorRequested = "mfa_requested"
    /// A second factor completed a sign-in.
    case secondFactorSucceeded = "mfa_succeeded"
    /// A wrong TOTP or recovery code (sign-in, re-authentication, activation or reset).
    case secondFactorFailed = "mfa_failed"
    /// A passkey was registered (`detail`: passkey id, algorithm, backup eligibility, attestation format).
    case passkeyAdded = "passkey_added"
    /// The user, or an operator (`latchctl passkeys remove`), removed a passkey.
    case passkeyRemoved = "passkey_removed"
    /// The user renamed a passkey.
    case passkeyRenamed = "passkey_renamed"
    /// A passkey opened a session.
    case passkeySignInSucceeded = "passkey_signin_succeeded"
    /// A passkey ceremony was refused (`detail.reason`: the WebAuthn check, or `unknown_credential`).
    case passkeyFailed = "passkey_failed"
    /// A passkey's signature counter did not grow: a cloned authenticator, refused and mailed to the user.
    case passkeyCloneSuspected = "passkey_clone_suspected"
    /// A provider's id_token signed in (`detail`: provider, identity id, session id or `mfa_required`).
    case providerSignInSucceeded = "provider_sign_in_succeeded"
    /// A provider sign-in was refused (`detail.reason`: the nonce or token check, or `email_unverified`).
    case providerSignInFailed = "provider_sign_in_failed"
    /// A provider sign-in made a new account (confirmed, without a password).
    case providerSignUp = "provider_sign_up"
    /// A provider identity was linked to an existing account by its verified address (`detail.confirmed`: the
    /// link also confirmed the account and dropped its sign-up password).
    case identityLinked = "identity_linked"
    /// The user unlinked a provider identity.
    case identityRemoved = "identity_removed"
    /// A provider's token was revoked or its revocation gave up (`detail`: provider, job id, outcome).
    case providerTokenRevocation = "provider_token_revocation"
    /// A typed code matched no live token (never the code itself).
    case wrongCode = "wrong_code"
    /// For latchctl, which issues tokens directly.
    case tokenIssuedByCLI = "token_issued_by_cli"
    /// An operator invited an address: the account was made without a password (its own `sign_up` row) and the
    /// invitation mailed.
    case inviteSent = "invite_sent"
    /// The invited person chose the first password: the address is confirmed (its own `email_confirmed` row) and,
    /// from the app, a session opened.
    case inviteAccepted = "invite_accepted"
    /// latchctl re-enabled a disabled account.
    case userEnabled = "user_enabled"
    /// latchctl deleted an account (the audit log keeps its rows).
    case userDeleted = "user_deleted"
    /// The purge deleted an account left unconfirmed past `LATCH_UNCONFIRMED_TTL`, so the address is free to sign
    /// up again; the row keeps the user id, no address (the address may never have been the signer's own).
    case unconfirmedPurged = "unconfirmed_purged"
    /// latchctl cleared an email's sign-in lockout and per-email sign-in limit.
    case userUnlocked = "user_unlocked"
    /// An access-token signing key was made: the first one, a rotation's next key, or a replacement.
    case signingKeyCreated = "signing_key_created"
    /// A waiting signing key was made current early (the current one was revoked).
    case signingKeyActivated = "signing_key_activated"
    /// An operator revoked a signing key.
    case signingKeyRevoked = "signing_key_revoked"
    /// An operator added a webhook endpoint (`detail`: endpoint id, URL's host, event types; never the secret).
    case webhookEndpointAdded = "webhook_endpoint_added"
    /// An operator stopped deliveries to a webhook endpoint.
    case webhookEndpointDisabled = "webhook_endpoint_disabled"
    /// An operator resumed deliveries to a webhook endpoint.
    case webhookEndpointEnabled = "webhook_endpoint_enabled"
    /// An operator gave a webhook endpoint a new secret; the old one signs too until `detail.previous_until`.
    case webhookEndpointSecretRotated = "webhook_endpoint_secret_rotated"
    /// An operator removed a webhook endpoint and its deliveries.
    case webhookEndpointRemoved = "webhook_endpoint_removed"
    /// An operator had an endpoint's events since `detail.since` sent again (`detail.deliveries`: how many).
    case webhookReplayed = "webhook_replayed"
    /// An operator created an admin API key (`detail`: key id, name, scopes, expiry; never the secret).
    case adminAPIKeyCreated = "admin_api_key_created"
    /// An operator revoked an admin API key.
    case adminAPIKeyRevoked = "admin_api_key_revoked"
    /// A read through the admin API (`detail`: the key's actor and id, the route); its writes are audited under
    /// their own names with the key as the actor.
    case adminAPIRead = "admin_api_read"
    /// An operator made unsent mail due now (`detail`: `outbox_id` when one mail, `retried`, `unrecoverable`).
    case outboxRetried = "outbox_retried"
    /// An operator set the user's language (`detail.locale`); the user's own choice is not audited.
    case localeChanged = "locale_changed"
}
