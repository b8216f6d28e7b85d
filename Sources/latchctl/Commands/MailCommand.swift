import AuthCore
import Foundation
import LatchApp
import Mailer

/// `latchctl mail kinds|preview`: what an operator writing templates needs, the kinds and their placeholders, and
/// a mail rendered from the templates latchd would load (LATCH_TEMPLATES_DIR over the shipped ones).
enum MailCommand {
    static var spec: CommandSpec {
        .group("mail", "Help with the mail templates: their kinds and placeholders, and previews.", [
            CommandSpec(
                name: "kinds", summary: "List every kind of mail with the placeholders its templates may use.",
                discussion: """
                    A language is a directory of LATCH_TEMPLATES_DIR (de, fr, pt-BR) with <kind>.subject, <kind>.txt
                    and <kind>.html, layout.txt and layout.html ({{content}} is the kind's body) and units.json (the
                    words for lifetimes). A file there replaces the shipped one; a new language needs every file.
                    {{name}} is a value, {{#name}}…{{/name}} is shown only when it has one, {{^name}}…{{/name}} only
                    when it has none. latchd checks every file at start and refuses to start naming the file.
                    """,
                action: kinds),
            CommandSpec(
                name: "preview", summary: "Render one kind in one language with sample values.",
                options: [
                    .value("kind", "KIND", "the kind of mail (latchctl mail kinds lists them)"),
                    .value("locale", "LOCALE", "the language (default: LATCH_DEFAULT_LOCALE)"),
                    .flag("html", "print the HTML body instead of the subject and the text"),
                ],
                action: preview),
        ])
    }

    static func kinds(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        var table = TextTable(["KIND", "PLACEHOLDERS"])
        for kind in MailKind.allCases {
            table.append([kind.rawValue, MailPlaceholders.names(for: kind).joined(separator: " ")])
        }
        let legend = MailPlaceholders.descriptions.sorted { $0.key < $1.key }
            .map { "  \($0.key.padding(toLength: 14, withPad: " ", startingAt: 0)) \($0.value)" }
        let text = table.rendered() + "\nlayouts: " + MailPlaceholders.layout.joined(separator: " ") + "\n\n"
            + legend.joined(separator: "\n")
        return CommandOutput(text: text, json: .object([
            "kinds": .array(MailKind.allCases.map { kind in
                .object(["kind": .string(kind.rawValue),
                         "placeholders": .array(MailPlaceholders.names(for: kind).map(JSONValue.string))])
            }),
            "layout_placeholders": .array(MailPlaceholders.layout.map(JSONValue.string)),
            "placeholders": .object(MailPlaceholders.descriptions.mapValues(JSONValue.string)),
        ]))
    }

    static func preview(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let name = try arguments.required("kind")
        guard let kind = MailKind(rawValue: name) else {
            throw UsageError("--kind must be one of " + MailKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let composer = try LatchApplication.makeMailComposer(configuration: try context.configuration())
        let locale = arguments.value("locale") ?? composer.templates.defaultLocale
        guard composer.locales.contains(locale) else {
            throw UsageError("--locale must be one of " + composer.locales.joined(separator: ", "))
        }
        let mail = composer.compose(MailSamples.request(kind, locale: locale))
        let text = arguments.flag("html") ? mail.html : "Subject: \(mail.subject)\n\n\(mail.text)"
        return CommandOutput(text: text, json: .object([
            "kind": .string(kind.rawValue), "locale": .string(mail.language), "subject": .string(mail.subject),
            "text": .string(mail.text), "html": .string(mail.html),
        ]))
    }
}
