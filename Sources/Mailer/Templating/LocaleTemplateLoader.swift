import AuthCore
import Foundation

/// Reads, parses and checks one language's files: each template may use only its kind's placeholders
/// (`MailPlaceholders`), each layout must place `{{content}}`, and every kind must render to something with
/// sample values, with and without the optional ones.
struct LocaleTemplateLoader {
    let files: LocaleFiles

    func load() throws(TemplateError) -> LocaleTemplates {
        var kinds: [MailKind: LocaleTemplates.Kind] = [:]
        for kind in MailKind.allCases {
            let allowed = MailPlaceholders.names(for: kind)
            kinds[kind] = LocaleTemplates.Kind(
                subject: try template("\(kind.rawValue).subject", allowed: allowed, of: kind.rawValue),
                text: try template("\(kind.rawValue).txt", allowed: allowed, of: kind.rawValue),
                html: try template("\(kind.rawValue).html", allowed: allowed, of: kind.rawValue))
        }
        let templates = LocaleTemplates(
            textLayout: try layout("layout.txt"), htmlLayout: try layout("layout.html"), kinds: kinds,
            wording: try wording())
        try checkRendering(templates)
        return templates
    }

    /// Kind files lose their trailing line breaks (editors add one; the layout decides the spacing).
    private func template(_ name: String, allowed: [String], of owner: String) throws(TemplateError) -> MailTemplate {
        let (text, path) = try files.read(name)
        let source = name.hasPrefix("layout.") ? text : String(text.reversed().drop { $0.isNewline }.reversed())
        let template: MailTemplate
        do {
            template = try MailTemplate(parsing: source)
        } catch {
            throw .file(path: path, problem: error.description)
        }
        if let unknown = template.names.subtracting(allowed).sorted().first {
            throw .file(path: path, problem: "{{\(unknown)}} is not a placeholder of \(owner) "
                + "(it has: \(allowed.joined(separator: ", ")))")
        }
        return template
    }

    private func layout(_ name: String) throws(TemplateError) -> MailTemplate {
        let template = try template(name, allowed: MailPlaceholders.layout, of: "the layout")
        guard template.names.contains("content") else {
            throw .file(path: try files.read(name).path, problem: "has no {{content}}: the mail's body would be lost")
        }
        return template
    }

    private func wording() throws(TemplateError) -> LinkLifetimeWording {
        let (text, path) = try files.read("units.json")
        return try UnitsFile(path: path).decode(text)
    }

    private func checkRendering(_ templates: LocaleTemplates) throws(TemplateError) {
        for kind in MailKind.allCases {
            for full in [true, false] {
                let request = MailSamples.request(kind, full: full)
                let values = MailValues.values(
                    for: request, productName: "Latch", supportAddress: full ? "help@example.com" : nil,
                    language: files.locale, wording: templates.wording)
                let mail = templates.render(kind, values: values)
                for (part, body) in [("subject", mail.subject), ("txt", mail.text), ("html", mail.html)]
                where body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    throw .file(path: try files.read("\(kind.rawValue).\(part)").path,
                                problem: "renders nothing with the sample values")
                }
            }
        }
    }
}
