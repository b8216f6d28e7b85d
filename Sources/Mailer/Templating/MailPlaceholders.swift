import AuthCore

/// The one table of what each kind's templates may say: validation refuses any other name in a kind's files,
/// and `latchctl mail kinds` prints it for operators writing their own.
public enum MailPlaceholders {
    /// Every placeholder with what it holds, for people.
    public static let descriptions: [String: String] = [
        "product": "the product's name (LATCH_PRODUCT_NAME)",
        "address": "the recipient's address",
        "support": "where users write for help; absent when not configured",
        "lang": "the mail's language (BCP 47 tag)",
        "link": "the link to open; absent when the mail has none",
        "expiry": "the link's lifetime in words (\"24 hours\"); absent without a link",
        "code": "the code to type in the app, in groups of four",
        "code_expiry": "the code's lifetime in words, for a code without a link",
        "other_address": "the other address a change of address is about",
        "device": "the device or browser that asked, in a few words; absent when unknown",
        "item": "the name of the passkey or provider the notice is about; absent when unnamed",
        "subject": "the rendered subject (layouts only)",
        "content": "the kind's rendered body (layouts only)",
    ]

    /// In every kind's files and in the layouts.
    public static let common = ["product", "address", "support", "lang"]
    /// The layouts' own: the rendered subject and the kind's rendered body.
    public static let layout = common + ["subject", "content"]

    /// The names `kind`'s `.subject`, `.txt` and `.html` may use, the common ones first.
    public static func names(for kind: MailKind) -> [String] {
        common + specific(kind)
    }

    private static func specific(_ kind: MailKind) -> [String] {
        let link = ["link", "expiry", "code"]
        switch kind {
        case .confirmEmail, .resetPassword, .signupAttempt, .passwordChanged, .finishSignUp, .acceptInvite: return link
        case .confirmEmailChange: return link + ["other_address"]
        case .signIn: return link + ["device"]
        case .emailChangeRequested: return ["other_address"]
        case .reauthenticationCode: return ["code", "code_expiry"]
        case .passkeyAdded, .passkeyRemoved, .passkeyCloneSuspected, .identityLinked, .identityRemoved: return ["item"]
        case .emailAlreadyRegistered, .accountDeleted, .secondFactorEnabled, .secondFactorRemoved, .recoveryCodeUsed:
            return []
        }
    }
}
