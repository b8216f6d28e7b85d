import AuthCore
import Foundation

/// The mails of `MailKind`, in English, for one product.
public struct MailTemplates: MailComposer {
    /// The product's name as shown in subjects and bodies (control characters removed).
    public let productName: String
    /// Where users can write for help; mentioned in every mail when set.
    public let supportAddress: String?

    /// `productName` and `supportAddress` are sanitized of control characters here, so even a misconfigured
    /// name cannot break a subject line or a body's layout.
    public init(productName: String, supportAddress: String? = nil) {
        self.productName = HeaderText.sanitize(productName)
        let support = supportAddress.map(HeaderText.sanitize)
        self.supportAddress = (support?.isEmpty ?? true) ? nil : support
    }

    public func compose(_ request: MailRequest) -> ComposedMail {
        let content = content(for: request)
        return ComposedMail(
            kind: request.kind, recipient: request.recipient, subject: content.subject,
            text: MailBodyRenderer.text(content), html: MailBodyRenderer.html(content), deepLink: request.deepLink
        )
    }

    func content(for request: MailRequest) -> MailContent {
        switch request.kind {
        case .confirmEmail: confirmEmail(request)
        case .resetPassword: resetPassword(request)
        case .signupAttempt: signupAttempt(request)
        case .passwordChanged: passwordChanged(request)
        case .finishSignUp: finishSignUp(request)
        case .confirmEmailChange: confirmEmailChange(request)
        case .emailChangeRequested: emailChangeRequested(request)
        case .emailAlreadyRegistered: emailAlreadyRegistered(request)
        case .accountDeleted: accountDeleted(request)
        case .signIn: signIn(request)
        case .reauthenticationCode: reauthenticationCode(request)
        case .secondFactorEnabled: secondFactorEnabled(request)
        case .secondFactorRemoved: secondFactorRemoved(request)
        case .recoveryCodeUsed: recoveryCodeUsed(request)
        case .passkeyAdded: passkeyAdded(request)
        case .passkeyRemoved: passkeyRemoved(request)
        case .identityLinked: identityLinked(request)
        case .identityRemoved: identityRemoved(request)
        case .passkeyCloneSuspected: passkeyCloneSuspected(request)
        }
    }

    private func confirmEmail(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Confirm your email for \(productName)", heading: "Confirm your email",
            intro: [
                "Thanks for signing up for \(productName). Please confirm that \(request.recipient) is your email address.",
                "Confirming activates the account with the password that was chosen when signing up, and signs you in.",
            ],
            actionLabel: "Confirm email",
            outro: ["If you didn’t sign up for \(productName) yourself, don’t confirm: ignore this email and the "
                + "account stays inactive. Someone else chose its password."]
        )
    }

    private func finishSignUp(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Finish signing up for \(productName)", heading: "Choose your password",
            intro: [
                "Someone signed up for \(productName) with \(request.recipient) again before the address was confirmed.",
                "To make sure that only you can sign in, the account has no password for now. "
                    + "If it was you, choose your password: this also confirms your address.",
            ],
            actionLabel: "Choose password",
            outro: ["If you didn’t sign up, you can ignore this email: nobody can sign in to the account."]
        )
    }

    private func confirmEmailChange(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Confirm your new email address for \(productName)", heading: "Confirm your new address",
            intro: ["Someone asked to use \(request.recipient) as the email address of "
                + (request.otherAddress.map { "the \(productName) account of \($0)" } ?? "a \(productName) account")
                + ". If it was you, confirm: you will then sign in with this address."],
            actionLabel: "Confirm new address",
            outro: ["If you didn’t ask for this, ignore this email: nothing changes without your confirmation."]
        )
    }

    /// To the current address: no link at all, so nothing in it can change the account.
    private func emailChangeRequested(_ request: MailRequest) -> MailContent {
        let target = request.otherAddress.map { " to \($0)" } ?? ""
        return mail(
            request, subject: "Your \(productName) email address is being changed",
            heading: "A change of your email address was requested",
            intro: [
                "Someone signed in to the \(productName) account for \(request.recipient) and asked to change its "
                    + "email address\(target). The change happens only once the new address is confirmed.",
                "If it was you, you don’t need to do anything here.",
                "If it wasn’t you, someone knows your password: sign in, change your password, and sign out of "
                    + "your other devices.",
            ],
            actionLabel: "", outro: []
        )
    }

    private func emailAlreadyRegistered(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "This address already has a \(productName) account",
            heading: "This address already has an account",
            intro: ["Someone asked to move a \(productName) account to \(request.recipient), but this address "
                + "already has an account of its own, so nothing was changed."],
            actionLabel: "",
            outro: ["If it wasn’t you, you don’t need to do anything: your account has not changed."]
        )
    }

    private func accountDeleted(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Your \(productName) account was deleted", heading: "Your account was deleted",
            intro: [
                "The \(productName) account for \(request.recipient) was deleted, with its sessions and settings. "
                    + "This is the last email you will get from us about it.",
                "If you didn’t ask for this, contact us: someone may have known your password.",
            ],
            actionLabel: "", outro: []
        )
    }

    private func signIn(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Sign in to \(productName)", heading: "Sign in to \(productName)",
            intro: [
                "Someone asked to sign in to the \(productName) account for \(request.recipient) from "
                    + "\(request.requestedBy ?? "an unknown device"). If it was you, open the link on that device, "
                    + "or type the code there. It works only in the app that asked.",
            ],
            actionLabel: "Sign in",
            outro: ["If it wasn’t you, you can ignore this email: nobody can use it without the device that asked, "
                + "and your account has not changed."]
        )
    }

    /// A code only: it proves the mailbox to a session that is already signed in, so there is no link to open.
    private func reauthenticationCode(_ request: MailRequest) -> MailContent {
        let lifetime = request.codeLifetime.map { " It expires in \(LinkLifetimeWording.describe($0))." } ?? ""
        return mail(
            request, subject: "Your \(productName) code to confirm it’s you", heading: "Confirm it’s you",
            intro: [
                "Your \(productName) session for \(request.recipient) asked for this code to confirm it’s you "
                    + "before a change to the account. Type it in the app.\(lifetime)",
            ],
            actionLabel: "",
            outro: ["If you didn’t ask for it, someone may be using your signed-in session: sign out of your other "
                + "devices and change your password."]
        )
    }

    private func secondFactorEnabled(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Two-step verification is on for \(productName)", heading: "Two-step verification is on",
            intro: [
                "The \(productName) account for \(request.recipient) now asks for a code from an authenticator app "
                    + "after the password. Every other device was signed out.",
                "Keep the recovery codes you were shown somewhere safe: each signs you in once without the authenticator.",
            ],
            actionLabel: "",
            outro: ["If you didn’t turn it on, someone has access to your account: reset your password now."]
        )
    }

    private func secondFactorRemoved(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "An authenticator was removed from \(productName)", heading: "An authenticator was removed",
            intro: ["An authenticator app was removed from the \(productName) account for \(request.recipient). "
                + "If it was the last one, signing in asks only for the first factor again."],
            actionLabel: "",
            outro: ["If you didn’t remove it, someone has access to your account: reset your password and turn "
                + "two-step verification on again."]
        )
    }

    private func recoveryCodeUsed(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "A \(productName) recovery code was used", heading: "A recovery code was used",
            intro: ["A recovery code of the \(productName) account for \(request.recipient) was just used instead of "
                + "the authenticator app. It cannot be used again."],
            actionLabel: "",
            outro: ["If it wasn’t you, someone has your password and a recovery code: reset your password, then "
                + "make new recovery codes."]
        )
    }

    private func passkeyAdded(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "A passkey was added to \(productName)", heading: "A passkey was added",
            intro: ["A passkey\(passkeyName(request)) was added to the \(productName) account for \(request.recipient). "
                + "It signs in without a password or a code from an authenticator app."],
            actionLabel: "",
            outro: ["If you didn’t add it, someone has access to your account: remove the passkey in the app and "
                + "reset your password."]
        )
    }

    private func passkeyRemoved(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "A passkey was removed from \(productName)", heading: "A passkey was removed",
            intro: ["A passkey\(passkeyName(request)) was removed from the \(productName) account for "
                + "\(request.recipient). It no longer signs in."],
            actionLabel: "",
            outro: ["If you didn’t remove it, someone has access to your account: reset your password."]
        )
    }

    /// `itemName` is the provider's name as people know it ("Apple").
    private func identityLinked(_ request: MailRequest) -> MailContent {
        let provider = request.itemName ?? "another provider"
        return mail(
            request, subject: "Sign in with \(provider) was linked to \(productName)",
            heading: "Sign in with \(provider) was linked",
            intro: ["Signing in with \(provider) now opens the \(productName) account for \(request.recipient). "
                + "\(provider) confirmed that this address is theirs."],
            actionLabel: "",
            outro: ["If you didn’t do this, someone has access to your \(provider) account: remove the link in the "
                + "app and secure that account."]
        )
    }

    private func identityRemoved(_ request: MailRequest) -> MailContent {
        let provider = request.itemName ?? "another provider"
        return mail(
            request, subject: "Sign in with \(provider) was removed from \(productName)",
            heading: "Sign in with \(provider) was removed",
            intro: ["Signing in with \(provider) no longer opens the \(productName) account for "
                + "\(request.recipient)."],
            actionLabel: "",
            outro: ["If you didn’t remove it, someone has access to your account: reset your password."]
        )
    }

    private func passkeyCloneSuspected(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "A \(productName) sign-in with a passkey was refused",
            heading: "A passkey sign-in was refused",
            intro: ["A sign-in to the \(productName) account for \(request.recipient) with the passkey"
                + "\(passkeyName(request)) was refused: its counter went backwards, which is what a copy of the "
                + "passkey does."],
            actionLabel: "",
            outro: ["If you don’t know why, remove that passkey in the app and add a new one."]
        )
    }

    /// ` “name”` for a notice about one passkey, nothing without a name.
    private func passkeyName(_ request: MailRequest) -> String {
        guard let name = request.itemName, !name.isEmpty else { return "" }
        return " “\(HeaderText.sanitize(name))”"
    }

    private func resetPassword(_ request: MailRequest) -> MailContent {
        mail(
            request, subject: "Reset your \(productName) password", heading: "Reset your password",
            intro: ["Someone asked to reset the password of the \(productName) account for \(request.recipient). "
                + "If it was you, choose a new password:"],
            actionLabel: "Reset password",
            outro: ["If you didn’t ask for this, you can ignore this email: your password stays the same."]
        )
    }

    private func signupAttempt(_ request: MailRequest) -> MailContent {
        let resetHint = request.deepLink == nil
            ? "If you forgot your password, use “Forgot password?” on the sign-in screen to reset it."
            : "If you forgot your password, you can reset it:"
        return mail(
            request, subject: "You already have a \(productName) account",
            heading: "Someone tried to sign up with your address",
            intro: [
                "Someone just tried to create a new \(productName) account with \(request.recipient). "
                    + "You already have an account with this address, so no new account was created.",
                "If it was you, just sign in. \(resetHint)",
            ],
            actionLabel: "Reset password",
            outro: ["If it wasn’t you, you don’t need to do anything: your account has not changed, "
                + "and nobody can sign in without your password."]
        )
    }

    private func passwordChanged(_ request: MailRequest) -> MailContent {
        let howToReset = request.deepLink == nil
            ? "reset it right away with “Forgot password?” on the sign-in screen"
            : "reset it right away"
        let contact = supportAddress == nil ? "" : " and let us know"
        return mail(
            request, subject: "Your \(productName) password was changed", heading: "Your password was changed",
            intro: [
                "The password of the \(productName) account for \(request.recipient) was just changed.",
                "If it was you, you don’t need to do anything.",
                "If it wasn’t you, someone else may know your password: \(howToReset)\(contact).",
            ],
            actionLabel: "Reset password", outro: []
        )
    }

    /// Shared assembly: the action only when the request has a link, the expiry only when it has a lifetime.
    private func mail(
        _ request: MailRequest, subject: String, heading: String, intro: [String], actionLabel: String,
        outro: [String]
    ) -> MailContent {
        MailContent(
            subject: subject, heading: heading, intro: intro,
            action: request.deepLink.map { MailContent.Action(label: actionLabel, link: $0) },
            code: request.code,
            expiry: request.deepLink == nil ? nil : request.linkLifetime.map {
                "This link expires in \(LinkLifetimeWording.describe($0))."
            },
            outro: outro, supportAddress: supportAddress,
            footer: "\(productName) sent this automatic message to \(request.recipient)."
        )
    }
}
