import AuthCore
import Foundation

/// The mail templates of every language latchd writes in, loaded once at start and checked: a set that exists
/// renders every kind in every language.
public struct MailTemplateSet: Sendable {
    /// The BCP 47 tags of the languages, the default first, then the others in order.
    public let locales: [String]
    let byLocale: [String: LocaleTemplates]

    public var defaultLocale: String { locales[0] }

    init(defaultLocale: String, byLocale: [String: LocaleTemplates]) {
        self.byLocale = byLocale
        locales = [defaultLocale] + byLocale.keys.filter { $0 != defaultLocale }.sorted()
    }

    /// The shipped templates (`Templates/` in Mailer's resource bundle), nil if the bundle was not installed
    /// next to the binary.
    public static var shippedDirectory: URL? {
        Bundle.module.url(forResource: "Templates", withExtension: nil)
    }

    /// The shipped templates under the operator's (`override`), as latchd and latchctl load them.
    public static func load(override: URL?, defaultLocale: String) throws(TemplateError) -> MailTemplateSet {
        guard let directory = shippedDirectory else {
            throw .file(path: Bundle.module.bundlePath + "/Templates", problem: "is missing from the installation")
        }
        return try load(shipped: directory, override: override, defaultLocale: defaultLocale)
    }

    /// The shipped set alone, as tests and tools without configuration use it.
    public static func shipped(defaultLocale: String = "en") throws(TemplateError) -> MailTemplateSet {
        try load(override: nil, defaultLocale: defaultLocale)
    }

    /// The loaded language that `locale` names (compared without case), else the default.
    func resolve(_ locale: String?) -> String {
        guard let wanted = locale?.lowercased() else { return defaultLocale }
        return locales.first { $0.lowercased() == wanted } ?? defaultLocale
    }

    func templates(_ locale: String) -> LocaleTemplates {
        guard let templates = byLocale[locale] else { preconditionFailure("resolve(_:) returns loaded locales") }
        return templates
    }
}
