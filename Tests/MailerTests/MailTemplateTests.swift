@testable import Mailer
import Testing

/// The template language itself: placeholders, sections, escaping, and the errors an operator sees.
@Suite struct MailTemplateTests {
    @Test func placeholdersAndSections() throws {
        let template = try MailTemplate(parsing: "Hi {{address}}.{{#device}} From {{device}}.{{/device}}{{^device}} From somewhere.{{/device}}")
        #expect(template.render(["address": "ann@example.com", "device": "Safari"], format: .line)
            == "Hi ann@example.com. From Safari.")
        #expect(template.render(["address": "ann@example.com"], format: .line) == "Hi ann@example.com. From somewhere.")
        #expect(template.render(["address": "ann@example.com", "device": ""], format: .line)
            == "Hi ann@example.com. From somewhere.")
        #expect(template.names == ["address", "device"])
    }

    @Test func htmlEscapesValuesButNotTheTemplate() throws {
        let template = try MailTemplate(parsing: "<p title=\"{{item}}\">{{item}}</p>")
        let html = template.render(["item": "<script>alert('x')</script> & \"Co\""], format: .html)
        #expect(html == "<p title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;\">"
            + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;</p>")
        #expect(!html.contains("<script>"))
    }

    @Test func rawValuesAreInsertedAsTheyAre() throws {
        let layout = try MailTemplate(parsing: "<div>{{content}}</div>")
        #expect(layout.render([:], format: .html, raw: ["content": "<p>a &amp; b</p>"]) == "<div><p>a &amp; b</p></div>")
    }

    @Test(arguments: [TemplateFormat.line, .html])
    func lineBreaksInAValueStayOnOneLine(format: TemplateFormat) throws {
        let template = try MailTemplate(parsing: "Subject for {{other_address}}")
        let text = template.render(["other_address": "x@example.com\r\nBcc: victim@example.com\u{2028}\u{0}"], format: format)
        #expect(!text.contains("\r") && !text.contains("\n") && !text.contains("\u{2028}") && !text.contains("\u{0}"))
        #expect(text.hasPrefix("Subject for x@example.com Bcc:"))
    }

    @Test(arguments: [
        ("a {{product", "line 1: a tag opened with {{ is never closed with }}"),
        ("a\n{{#link}}b", "line 2: {{#link}} is never closed"),
        ("{{#link}}\n{{#code}}x{{/link}}{{/code}}", "line 2: {{/link}} closes {{#code}} of line 2"),
        ("x {{/code}}", "line 1: {{/code}} closes no open section"),
        ("{{ product }}", "line 1: {{ product }} is not a placeholder (names are lower-case letters and _)"),
        ("{{}}", "line 1: {{}} is not a placeholder (names are lower-case letters and _)"),
    ])
    func syntaxErrorsNameTheLine(source: String, message: String) {
        #expect(throws: TemplateSyntaxError(description: message)) { try MailTemplate(parsing: source) }
    }
}
