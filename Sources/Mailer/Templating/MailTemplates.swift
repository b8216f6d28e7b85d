import AuthCore
import Foundation

/// The mails of `MailKind` from a `MailTemplateSet`, for one product: AuthCore's composer. A request in a
/// language the set has gets that language, any other the default.
public struct MailTemplates: MailComposer {
    public let templates: MailTemplateSet
    /// The product's name as shown in subjects and bodies (control characters removed).
    public let productName: String
    /// Where users can write for help; mentioned in every mail when set.
    public let supportAddress: String?

    /// `productName` and `supportAddress` are sanitized of control characters here, so even a misconfigured
    /// name cannot break a subject line or a body's layout.
    public init(templates: MailTemplateSet, productName: String, supportAddress: String? = nil) {
        self.templates = templates
        self.productName = HeaderText.sanitize(productName)
        let support = supportAddress.map(HeaderText.sanitize)
        self.supportAddress = (support?.isEmpty ?? true) ? nil : support
    }

    /// The shipped templates, English by default.
    public init(productName: String, supportAddress: String? = nil) throws(TemplateError) {
        self.init(templates: try .shipped(), productName: productName, supportAddress: supportAddress)
    }

    public var locales: [String] { templates.locales }

    public func compose(_ request: MailRequest) -> ComposedMail {
        let language = templates.resolve(request.locale)
        let localized = templates.templates(language)
        let values = MailValues.values(
            for: request, productName: productName, supportAddress: supportAddress, language: language,
            wording: localized.wording)
        let mail = localized.render(request.kind, values: values)
        return ComposedMail(
            kind: request.kind, recipient: request.recipient, subject: mail.subject, text: mail.text, html: mail.html,
            deepLink: request.deepLink, language: language, code: request.code)
    }
}
