/// One parsed template file: text with `{{name}}` placeholders, `{{#name}}…{{/name}}` sections shown only when
/// `name` has a value, and `{{^name}}…{{/name}}` sections shown only when it has none (the wording for a missing
/// device or provider). A small subset of Mustache, so operators who know Mustache read it at once; there is no
/// logic beyond present/absent, so a template cannot run anything or loop.
struct MailTemplate: Sendable, Hashable {
    indirect enum Node: Sendable, Hashable {
        case text(String)
        case value(String)
        case section(String, inverted: Bool, [Node])
    }

    let nodes: [Node]

    /// Throws `TemplateSyntaxError` for an unclosed tag or section, a section closed by another name, a closing
    /// tag without an opening, or an empty or malformed name; the message names the line.
    init(parsing source: String) throws(TemplateSyntaxError) {
        var parser = MailTemplateParser(source: source)
        nodes = try parser.parse()
    }

    /// Every name the template uses, as a placeholder or a section.
    var names: Set<String> { Self.names(in: nodes) }

    private static func names(in nodes: [Node]) -> Set<String> {
        nodes.reduce(into: Set<String>()) { names, node in
            switch node {
            case .text: break
            case .value(let name): names.insert(name)
            case .section(let name, _, let children):
                names.insert(name)
                names.formUnion(Self.names(in: children))
            }
        }
    }

    /// The text with every placeholder replaced: `values` through `format` (escaped for HTML, kept on one line),
    /// `raw` as is (an already rendered body in its layout). A name with neither is empty; an empty value counts
    /// as absent for sections.
    func render(_ values: [String: String], format: TemplateFormat, raw: [String: String] = [:]) -> String {
        var output = ""
        append(nodes, values: values, format: format, raw: raw, to: &output)
        return output
    }

    private func append(
        _ nodes: [Node], values: [String: String], format: TemplateFormat, raw: [String: String],
        to output: inout String
    ) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .value(let name):
                if let trusted = raw[name] {
                    output += trusted
                } else if let value = values[name] {
                    output += format.apply(value)
                }
            case .section(let name, let inverted, let children):
                let present = !(raw[name] ?? values[name] ?? "").isEmpty
                if present != inverted { append(children, values: values, format: format, raw: raw, to: &output) }
            }
        }
    }
}

/// What a problem in a template's text is, for people: "line 3: {{#link}} is never closed".
struct TemplateSyntaxError: Error, Equatable, CustomStringConvertible {
    var description: String
}
