import AuthCore

/// Every template of one language, parsed and checked: each kind's subject and bodies, the two layouts that
/// give all kinds one look, and the words for lifetimes.
struct LocaleTemplates: Sendable {
    struct Kind: Sendable {
        var subject: MailTemplate
        var text: MailTemplate
        var html: MailTemplate
    }

    /// The plain-text frame around each kind's `.txt`: `{{content}}`, the support line, the signature.
    var textLayout: MailTemplate
    /// The HTML document around each kind's `.html`: head, styles, `{{content}}`, footer.
    var htmlLayout: MailTemplate
    var kinds: [MailKind: Kind]
    var wording: LinkLifetimeWording

    /// The subject on one line, the text body and the HTML document. `values` are plain text; the layouts get
    /// the rendered subject as `subject` and the kind's body as `content` (already escaped, so inserted as is).
    func render(_ kind: MailKind, values: [String: String]) -> (subject: String, text: String, html: String) {
        guard let templates = kinds[kind] else { preconditionFailure("the loader checks every kind is present") }
        let subject = HeaderText.sanitize(templates.subject.render(values, format: .line))
        var framed = values
        framed["subject"] = subject
        let text = textLayout.render(framed, format: .line, raw: ["content": templates.text.render(values, format: .line)])
        let html = htmlLayout.render(framed, format: .html, raw: ["content": templates.html.render(values, format: .html)])
        return (subject, text, html)
    }
}
