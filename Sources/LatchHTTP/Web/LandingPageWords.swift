import AuthCore

/// Every word a landing page shows, in one language: one table per language (`english`, `german`, `french`), so a
/// phrase added here must be written in each of them before the code compiles, and a page never mixes languages.
/// Sentences name the product (`productName`), hence a table is made per product name. Not yet HTML-escaped.
struct LandingPageWords: Sendable {
    // Headings (also the `<title>`).
    let confirmReadyHeading: String
    let resetReadyHeading: String
    let emailChangeReadyHeading: String
    let signInReadyHeading: String
    let inviteReadyHeading: String
    let confirmDoneHeading: String
    let resetDoneHeading: String
    let emailChangeDoneHeading: String
    let inviteDoneHeading: String
    let expiredHeading: String
    let usedHeading: String
    let supersededHeading: String
    let invalidHeading: String
    let emailTakenHeading: String
    let alreadyConfirmedHeading: String
    let disabledHeading: String
    let rateLimitedHeading: String
    let tryAgainHeading: String
    let unavailableHeading: String

    // Messages, by flow where the flow changes what to do next.
    let confirmReady: String
    let resetReady: String
    /// (from, to): the masked addresses.
    let emailChangeReady: @Sendable (_ from: String, _ to: String) -> String
    /// When the addresses are not known.
    let emailChangeReadyUnknown: String
    let signInReady: String
    let inviteReady: String
    let confirmDone: String
    let resetDone: String
    let emailChangeDone: String
    let inviteDone: String
    let confirmExpired: String
    let resetExpired: String
    let emailChangeExpired: String
    let signInExpired: String
    let inviteExpired: String
    let confirmUsed: String
    let resetUsed: String
    let emailChangeUsed: String
    let signInUsed: String
    let inviteUsed: String
    let confirmSuperseded: String
    let resetSuperseded: String
    let emailChangeSuperseded: String
    let signInSuperseded: String
    let inviteSuperseded: String
    let invalid: String
    let signInInvalid: String
    let emailTaken: String
    let alreadyConfirmed: String
    let disabled: String
    let rateLimited: @Sendable (_ seconds: Int) -> String
    /// A POST that failed the cross-site checks.
    let refused: String
    let badForm: String
    let unavailable: String

    // Controls.
    let confirmButton: String
    let resetButton: String
    let changeAddressButton: String
    let acceptInviteButton: String
    let openInApp: String
    let openApp: String
    let emailLabel: String
    let codeLabel: String
    let newPasswordLabel: String
    /// (minimum, maximum) characters.
    let passwordHint: @Sendable (_ minimum: Int, _ maximum: Int) -> String
    let secondFactorLabel: String
    let secondFactorHint: String

    // Why a submitted form came back (`LandingProblem`).
    let passwordTooShort: @Sendable (_ minimum: Int) -> String
    let passwordTooLong: @Sendable (_ maximum: Int) -> String
    let passwordIsEmail: String
    let passwordTooCommon: String
    let secondFactorRequired: String
    let secondFactorInvalid: String
    let codeInvalid: String
    let emailInvalid: String
}

extension LandingPageWords {
    /// In an extension, so the tables keep the memberwise initializer.
    init(_ language: LandingLanguage, productName: String) {
        self = switch language {
        case .en: .english(productName)
        case .de: .german(productName)
        case .fr: .french(productName)
        }
    }

    /// The submit button of `form`.
    func submitLabel(_ form: LandingForm) -> String {
        switch form {
        case .confirmAddress: confirmButton
        case .newPassword: resetButton
        case .changeAddress: changeAddressButton
        case .firstPassword: acceptInviteButton
        }
    }

    /// The sentence shown next to the field `problem` concerns.
    func problem(_ problem: LandingProblem) -> String {
        switch problem {
        case .weakPassword(.passwordTooShort): passwordTooShort(PasswordPolicy.minimumLength)
        case .weakPassword(.passwordTooLong): passwordTooLong(PasswordPolicy.maximumLength)
        case .weakPassword(.passwordIsEmail): passwordIsEmail
        case .weakPassword(.passwordTooCommon): passwordTooCommon
        case .secondFactorRequired: secondFactorRequired
        case .secondFactorInvalid: secondFactorInvalid
        case .codeInvalid: codeInvalid
        case .emailInvalid: emailInvalid
        }
    }
}
