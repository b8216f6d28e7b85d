import HTMLEscaping
/// Lays out `MailContent` as a plain-text body and a simple, inline-styled, self-contained HTML body.
/// Every interpolated value goes through `HTMLText.escape`.
enum MailBodyRenderer {
    private static let paragraphStyle = "margin:0 0 16px;"
    private static let mutedStyle = "margin:0 0 16px;font-size:14px;color:#52525b;"
    private static let linkColor = "#1d4ed8"

    static func text(_ content: MailContent) -> String {
        var blocks = [content.heading] + content.intro
        if let action = content.action {
            blocks.append("\(action.label):\n\(action.link.absoluteString)")
        }
        if let expiry = content.expiry { blocks.append(expiry) }
        blocks += content.outro
        if let support = content.supportAddress { blocks.append("Questions? Write to \(support).") }
        blocks.append("-- \n\(content.footer)")
        return blocks.joined(separator: "\n\n") + "\n"
    }

    static func html(_ content: MailContent) -> String {
        var body: [String] = ["<h1 style=\"font-size:22px;line-height:1.3;margin:0 0 16px;\">\(e(content.heading))</h1>"]
        body += content.intro.map(paragraph)
        if let action = content.action { body += actionBlock(action) }
        if let expiry = content.expiry { body.append(paragraph(expiry)) }
        body += content.outro.map(paragraph)
        if let support = content.supportAddress {
            let mailto = e("mailto:" + support)
            body.append("<p style=\"\(paragraphStyle)\">Questions? Write to "
                + "<a href=\"\(mailto)\" style=\"color:\(linkColor);\">\(e(support))</a>.</p>")
        }
        body.append("<hr style=\"border:none;border-top:1px solid #e4e4e7;margin:24px 0;\">")
        body.append("<p style=\"margin:0;font-size:13px;color:#52525b;\">\(e(content.footer))</p>")
        return document(title: content.subject, body: body)
    }

    /// The button and, for clients that drop styles or users who copy links, the same link as text.
    private static func actionBlock(_ action: MailContent.Action) -> [String] {
        let href = e(action.link.absoluteString)
        let button = "display:inline-block;padding:12px 24px;background-color:\(linkColor);color:#ffffff;"
            + "text-decoration:none;border-radius:6px;font-weight:600;"
        return [
            "<p style=\"margin:24px 0;\"><a href=\"\(href)\" style=\"\(button)\">\(e(action.label))</a></p>",
            "<p style=\"\(mutedStyle)\">If the button doesn’t work, copy this link into your browser:<br>"
                + "<a href=\"\(href)\" style=\"color:\(linkColor);word-break:break-all;\">\(href)</a></p>",
        ]
    }

    private static func paragraph(_ text: String) -> String {
        "<p style=\"\(paragraphStyle)\">\(e(text))</p>"
    }

    private static func document(title: String, body: [String]) -> String {
        let container = "max-width:560px;margin:0 auto;padding:32px 24px;background-color:#ffffff;color:#18181b;"
            + "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light">
            <title>\(e(title))</title>
            </head>
            <body style="margin:0;padding:24px 0;background-color:#f4f4f5;">
            <div role="article" aria-label="\(e(title))" lang="en" style="\(container)">
            \(body.joined(separator: "\n"))
            </div>
            </body>
            </html>

            """
    }

    private static func e(_ text: String) -> String { HTMLText.escape(text) }
}
