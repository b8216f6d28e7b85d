extension LandingPageWords {
    /// English, the default. The browser tests read these exact words, and the problems are AuthCore's messages
    /// (`AuthError.message`), which the landing page tests compare with.
    static func english(_ product: String) -> LandingPageWords {
        LandingPageWords(
            confirmReadyHeading: "Confirm your email address",
            resetReadyHeading: "Choose a new password",
            emailChangeReadyHeading: "Confirm your new email address",
            signInReadyHeading: "Open the app on the device where you asked to sign in",
            inviteReadyHeading: "Accept your invitation",
            confirmDoneHeading: "Email address confirmed",
            resetDoneHeading: "Password changed",
            emailChangeDoneHeading: "Email address changed",
            inviteDoneHeading: "Invitation accepted",
            expiredHeading: "This link has expired",
            usedHeading: "This link has already been used",
            supersededHeading: "This link was replaced",
            invalidHeading: "This link is not valid",
            emailTakenHeading: "This address is taken",
            alreadyConfirmedHeading: "Email address already confirmed",
            disabledHeading: "Account disabled",
            rateLimitedHeading: "Too many attempts",
            tryAgainHeading: "Please try again",
            unavailableHeading: "Temporarily unavailable",

            confirmReady: "Press the button to confirm the email address of your \(product) account.",
            resetReady: "Enter a new password for your \(product) account.",
            emailChangeReady: { from, to in "Press the button to move your \(product) account from \(from) to \(to)." },
            emailChangeReadyUnknown: "Press the button to make this your \(product) account's email address.",
            signInReady: "This link works only on the device where you asked to sign in to \(product). If that is "
                + "not this device, type the code from the email in the \(product) app on that device.",
            inviteReady: "Choose the password of your \(product) account. This also confirms your email address.",
            confirmDone: "Your email address is confirmed. You can now sign in to \(product).",
            resetDone: "Your password has been changed and every device was signed out. Sign in with your new "
                + "password.",
            emailChangeDone: "Your \(product) account now uses this email address. Sign in with it from now on.",
            inviteDone: "Your password is set and your email address is confirmed. Sign in to \(product) with them.",
            confirmExpired: "Confirmation links work for a limited time. Open \(product) and ask for a new "
                + "confirmation email.",
            resetExpired: "Password reset links work for a limited time. Ask for a new one from the sign-in screen.",
            emailChangeExpired: "Links to change the address work for a limited time. Ask for the change again in "
                + "\(product).",
            signInExpired: "Sign-in links work for a limited time. Ask for a new sign-in email in the \(product) app.",
            inviteExpired: "Invitations work for a limited time. Ask the person who invited you for a new one, or ask for a "
                + "password reset from the sign-in screen.",
            confirmUsed: "This confirmation link was used already. If your address is confirmed, you can sign in.",
            resetUsed: "This reset link was used already. Ask for a new link if you still need to change your "
                + "password.",
            emailChangeUsed: "This link was used already. If the change went through, sign in with the new address.",
            signInUsed: "This sign-in link was used already. To sign in again, ask for a new sign-in email in the "
                + "\(product) app.",
            inviteUsed: "This invitation was accepted already. Sign in to \(product) with your email address and password.",
            confirmSuperseded: "A newer email or a password change replaced this link. Use the link in the newest "
                + "email from \(product), or ask for a new one.",
            resetSuperseded: "The password was changed since this link was sent, or a newer email replaced it. "
                + "Ask for a new link if you still need to change your password.",
            emailChangeSuperseded: "A newer request, a password change or a change of address replaced this link. "
                + "Use the newest email from \(product), or ask for the change again.",
            signInSuperseded: "A newer sign-in email or a password change replaced this link. Use the newest email "
                + "from \(product), or ask for a new one in the app.",
            inviteSuperseded: "This invitation was replaced: the account already has a password, or a newer email replaced "
                + "the link. Sign in, or ask for a password reset from the sign-in screen.",
            invalid: "Check that you opened the whole link from the newest email.",
            signInInvalid: "Check that you opened the whole link from the newest email, or ask for a new sign-in "
                + "email in the \(product) app.",
            emailTaken: "Another \(product) account uses this email address now, so nothing was changed.",
            alreadyConfirmed: "This email address is confirmed already. You can sign in to \(product).",
            disabled: "This account has been disabled.",
            rateLimited: { seconds in "Too many attempts. Try again in \(seconds) seconds." },
            refused: "This form can only be sent from the page that showed it. Open the link from your email again.",
            badForm: "The form arrived incomplete. Open the link from your email again.",
            unavailable: "The service is temporarily unavailable. Try again in a few minutes.",

            confirmButton: "Confirm email address",
            resetButton: "Set new password",
            changeAddressButton: "Change email address",
            acceptInviteButton: "Set password",
            openInApp: "Open in the \(product) app",
            openApp: "Open the \(product) app",
            emailLabel: "Email address",
            codeLabel: "Code from the email",
            newPasswordLabel: "New password",
            passwordHint: { minimum, maximum in "Between \(minimum) and \(maximum) characters." },
            secondFactorLabel: "Authenticator code or recovery code",
            secondFactorHint: "Only if you turned on two-step verification.",

            passwordTooShort: { minimum in "The password must have at least \(minimum) characters." },
            passwordTooLong: { maximum in "The password must have at most \(maximum) characters." },
            passwordIsEmail: "The password must not be your email address.",
            passwordTooCommon: "This password is too common; choose another.",
            secondFactorRequired: "This account has two-step verification: send a code from the authenticator or a "
                + "recovery code.",
            secondFactorInvalid: "That code is not valid. Use the current code from your authenticator, or a "
                + "recovery code.",
            codeInvalid: "This code is not valid. Check the newest mail, or ask for a new one.",
            emailInvalid: "That is not a valid email address.")
    }
}
