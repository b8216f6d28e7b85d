import AuthCore

/// A language the landing pages are written in (`LandingPageWords`): its BCP 47 tag, the raw value, goes into
/// `<html lang>` and `Content-Language`.
enum LandingLanguage: String, Sendable, CaseIterable {
    /// The default: the pages' original words, which the browser tests read.
    case en
    case de
    case fr
}

/// Which language a landing page speaks: the account's, when the page knows the account (a usable link), else the
/// best match of the browser's `Accept-Language`, else the default.
///
/// The pages offer only languages the mail also speaks: a person whose mail is English should not meet a German
/// page. The mail's locales are the operator's, so they may hold some the pages lack; those are left out.
struct LandingLanguages: Sendable {
    /// The languages offered, the default first.
    let negotiation: LanguageNegotiation

    /// - Parameter mail: the mail's languages (`AuthService.languages`), the default first.
    init(mail: LanguageNegotiation) {
        let pages = LanguageNegotiation(available: LandingLanguage.allCases.map(\.rawValue))
        var offered: [String] = []
        for locale in mail.available {
            if let page = pages.supported(locale), !offered.contains(page) { offered.append(page) }
        }
        // The mail's default first when the pages have it (it was first above); otherwise the pages' own default.
        let fallback = pages.defaultLocale
        if pages.supported(mail.defaultLocale) == nil {
            offered = [fallback] + offered.filter { $0 != fallback }
        }
        negotiation = LanguageNegotiation(available: offered.isEmpty ? [fallback] : offered)
    }

    /// - Parameters:
    ///   - account: the `users.locale` of the link's account; nil when the link is not usable or none was chosen.
    ///   - acceptLanguage: the request's `Accept-Language` header lines, as sent.
    func language(account: String?, acceptLanguage: [String]) -> LandingLanguage {
        let tag = account.flatMap(negotiation.supported)
            ?? negotiation.locale(acceptLanguage: acceptLanguage.isEmpty ? nil : acceptLanguage.joined(separator: ","))
        return LandingLanguage(rawValue: tag) ?? .en
    }
}
