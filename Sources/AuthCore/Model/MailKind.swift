import Foundation

/// The emails the service sends.
public enum MailKind: String, Sendable, Codable, CaseIterable {
    /// "Confirm your email": carries a confirmAuth link.
    case confirmEmail = "confirm_email"
    /// "Reset your password": carries a resetPassword link.
    case resetPassword = "reset_password"
    /// "Someone tried to sign up with your address": the enumeration-safe answer to a signup for an existing account.
    case signupAttempt = "signup_attempt"
    /// "Your password was changed".
    case passwordChanged = "password_changed"
    /// "Finish signing up by choosing your password": carries a resetPassword link. Sent instead of a confirm
    /// link when an address whose account is still unconfirmed signs up again, because then two people may have
    /// chosen a password and only the mailbox's owner may pick the one that stays.
    case finishSignUp = "finish_sign_up"
    /// "Confirm your new email address": carries a confirmEmailChange link, to the new address.
    case confirmEmailChange = "confirm_email_change"
    /// "Your email address is being changed": a notice to the current address, without any link.
    case emailChangeRequested = "email_change_requested"
    /// "This address already has an account": to a new address someone asked to move to, which is taken.
    case emailAlreadyRegistered = "email_already_registered"
    /// "Your account was deleted": the last mail to a deleted account's address.
    case accountDeleted = "account_deleted"
    /// "Sign in to …": carries a signIn link and its code, and says which device asked.
    case signIn = "sign_in"
    /// "Your code to confirm it's you": a code without a link, for re-authentication of a signed-in session.
    case reauthenticationCode = "reauthentication_code"
    /// "Two-step verification is on": a notice, no link.
    case secondFactorEnabled = "mfa_enabled"
    /// "An authenticator was removed" (by the user, or every factor by an operator): a notice, no link.
    case secondFactorRemoved = "mfa_removed"
    /// "A recovery code was used to sign in": a notice, with how many are left.
    case recoveryCodeUsed = "recovery_code_used"
    /// "A passkey was added": a notice, with the passkey's name.
    case passkeyAdded = "passkey_added"
    /// "A passkey was removed" (by the user, or by an operator): a notice, with the passkey's name.
    case passkeyRemoved = "passkey_removed"
    /// "A passkey may have been copied": its signature counter went backwards, so the sign-in was refused.
    case passkeyCloneSuspected = "passkey_clone_suspected"
    /// "Sign in with Apple was linked to your account": a notice, with the provider's name.
    case identityLinked = "identity_linked"
    /// "Sign in with Apple was removed from your account": a notice, with the provider's name.
    case identityRemoved = "identity_removed"
    /// "You're invited to …": carries an acceptInvite link and its code, to an account an operator made without a
    /// password.
    case acceptInvite = "accept_invite"
}
