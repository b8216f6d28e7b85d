/// The words of the landing pages, per flow and state: plain sentences that say what happened and what to do next
/// (links that fail need clear "expired" and "replaced" states, or people keep clicking dead links). Not yet
/// HTML-escaped.
struct LandingPageText: Equatable {
    let heading: String
    let message: String

    init(flow: LandingFlow, state: LandingPageState, productName: String, addressChange: AddressChange? = nil) {
        switch (flow, state) {
        case (.emailChange, .ready):
            heading = "Confirm your new email address"
            message = if let addressChange {
                "Press the button to move your \(productName) account from \(addressChange.from) "
                    + "to \(addressChange.to)."
            } else {
                "Press the button to make this your \(productName) account's email address."
            }
        case (.emailChange, .done):
            heading = "Email address changed"
            message = "Your \(productName) account now uses this email address. Sign in with it from now on."
        case (.emailChange, .expired):
            heading = "This link has expired"
            message = "Links to change the address work for a limited time. Ask for the change again in \(productName)."
        case (.emailChange, .used):
            heading = "This link has already been used"
            message = "This link was used already. If the change went through, sign in with the new address."
        case (.emailChange, .superseded):
            heading = "This link was replaced"
            message = "A newer request, a password change or a change of address replaced this link. "
                + "Use the newest email from \(productName), or ask for the change again."
        case (_, .emailTaken):
            heading = "This address is taken"
            message = "Another \(productName) account uses this email address now, so nothing was changed."
        case (.confirm, .ready):
            heading = "Confirm your email address"
            message = "Press the button to confirm the email address of your \(productName) account."
        case (.reset, .ready):
            heading = "Choose a new password"
            message = "Enter a new password for your \(productName) account."
        case (.confirm, .done):
            heading = "Email address confirmed"
            message = "Your email address is confirmed. You can now sign in to \(productName)."
        case (.reset, .done):
            heading = "Password changed"
            message = "Your password has been changed and every device was signed out. Sign in with your new password."
        case (.confirm, .expired):
            heading = "This link has expired"
            message = "Confirmation links work for a limited time. Open \(productName) and ask for a new confirmation email."
        case (.reset, .expired):
            heading = "This link has expired"
            message = "Password reset links work for a limited time. Ask for a new one from the sign-in screen."
        case (.confirm, .used):
            heading = "This link has already been used"
            message = "This confirmation link was used already. If your address is confirmed, you can sign in."
        case (.reset, .used):
            heading = "This link has already been used"
            message = "This reset link was used already. Ask for a new link if you still need to change your password."
        case (.confirm, .superseded):
            heading = "This link was replaced"
            message = "A newer email or a password change replaced this link. Use the link in the newest email "
                + "from \(productName), or ask for a new one."
        case (.reset, .superseded):
            heading = "This link was replaced"
            message = "The password was changed since this link was sent, or a newer email replaced it. "
                + "Ask for a new link if you still need to change your password."
        case (.signIn, .ready):
            heading = "Open the app on the device where you asked to sign in"
            message = "This link works only on the device where you asked to sign in to \(productName). If that is "
                + "not this device, type the code from the email in the \(productName) app on that device."
        case (.signIn, .expired):
            heading = "This link has expired"
            message = "Sign-in links work for a limited time. Ask for a new sign-in email in the \(productName) app."
        case (.signIn, .used):
            heading = "This link has already been used"
            message = "This sign-in link was used already. To sign in again, ask for a new sign-in email in the "
                + "\(productName) app."
        case (.signIn, .superseded):
            heading = "This link was replaced"
            message = "A newer sign-in email or a password change replaced this link. Use the newest email from "
                + "\(productName), or ask for a new one in the app."
        case (.signIn, .invalid):
            heading = "This link is not valid"
            message = "Check that you opened the whole link from the newest email, or ask for a new sign-in email in "
                + "the \(productName) app."
        case (_, .alreadyConfirmed):
            heading = "Email address already confirmed"
            message = "This email address is confirmed already. You can sign in to \(productName)."
        default:
            (heading, message) = Self.common(state)
        }
    }

    /// States whose wording does not depend on the flow.
    private static func common(_ state: LandingPageState) -> (String, String) {
        switch state {
        case .invalid:
            ("This link is not valid", "Check that you opened the whole link from the newest email.")
        case .disabled:
            ("Account disabled", "This account has been disabled.")
        case .rateLimited(let seconds):
            ("Too many attempts", "Too many attempts. Try again in \(seconds) seconds.")
        case .refused:
            ("Please try again", "This form can only be sent from the page that showed it. "
                + "Open the link from your email again.")
        case .badForm, .unsupportedMediaType:
            ("Please try again", "The form arrived incomplete. Open the link from your email again.")
        case .unavailable:
            ("Temporarily unavailable", "The service is temporarily unavailable. Try again in a few minutes.")
        case .ready, .done, .expired, .used, .superseded, .alreadyConfirmed, .emailTaken:
            ("", "")
        }
    }
}
