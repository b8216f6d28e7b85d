/// Turns a template's text into `MailTemplate.Node`s, one tag at a time, keeping a stack of open sections so a
/// section closed by another name or never closed is an error at the line where it happened.
struct MailTemplateParser {
    private let source: String
    private var position: String.Index
    /// The sections open now, innermost last: name, inverted, the line of `{{#`, the children read so far.
    private var open: [(name: String, inverted: Bool, line: Int, nodes: [MailTemplate.Node])] = []
    private var nodes: [MailTemplate.Node] = []

    init(source: String) {
        self.source = source
        position = source.startIndex
    }

    mutating func parse() throws(TemplateSyntaxError) -> [MailTemplate.Node] {
        while let tagStart = source[position...].range(of: "{{") {
            append(.text(String(source[position..<tagStart.lowerBound])))
            let line = self.line(at: tagStart.lowerBound)
            guard let tagEnd = source[tagStart.upperBound...].range(of: "}}") else {
                throw TemplateSyntaxError(description: "line \(line): a tag opened with {{ is never closed with }}")
            }
            let tag = String(source[tagStart.upperBound..<tagEnd.lowerBound])
            position = tagEnd.upperBound
            try read(tag: tag, line: line)
        }
        append(.text(String(source[position...])))
        if let unclosed = open.last {
            let mark = unclosed.inverted ? "^" : "#"
            throw TemplateSyntaxError(description: "line \(unclosed.line): {{\(mark)\(unclosed.name)}} is never closed")
        }
        return nodes
    }

    private mutating func read(tag: String, line: Int) throws(TemplateSyntaxError) {
        let sigil = tag.first.flatMap { "#^/".contains($0) ? $0 : nil }
        let name = sigil == nil ? tag : String(tag.dropFirst())
        guard Self.isName(name) else {
            throw TemplateSyntaxError(
                description: "line \(line): {{\(tag)}} is not a placeholder (names are lower-case letters and _)")
        }
        switch sigil {
        case "#", "^":
            open.append((name, sigil == "^", line, []))
        case "/":
            guard let section = open.popLast() else {
                throw TemplateSyntaxError(description: "line \(line): {{/\(name)}} closes no open section")
            }
            guard section.name == name else {
                throw TemplateSyntaxError(
                    description: "line \(line): {{/\(name)}} closes {{\(section.inverted ? "^" : "#")\(section.name)}} "
                        + "of line \(section.line)")
            }
            append(.section(name, inverted: section.inverted, section.nodes))
        default:
            append(.value(name))
        }
    }

    private mutating func append(_ node: MailTemplate.Node) {
        if case .text(let text) = node, text.isEmpty { return }
        if open.isEmpty {
            nodes.append(node)
        } else {
            open[open.count - 1].nodes.append(node)
        }
    }

    private func line(at index: String.Index) -> Int {
        source[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }
    }
}
