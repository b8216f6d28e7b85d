import Foundation

/// The words of one mail, before they are laid out as text and HTML. All strings are plain text.
struct MailContent: Sendable, Hashable {
    /// A call to action: shown as a button in HTML and as "label: link" in text.
    struct Action: Sendable, Hashable {
        var label: String
        var link: URL
    }

    var subject: String
    var heading: String
    /// Paragraphs before the action.
    var intro: [String]
    var action: Action?
    /// The short code that does what the link does, for typing into the app: shown large, in groups of four.
    var code: String?
    /// "This link expires in …", when the link has a lifetime.
    var expiry: String?
    /// Paragraphs after the action.
    var outro: [String]
    /// Shown as "Questions? Write to …" with a mailto link in HTML.
    var supportAddress: String?
    var footer: String
}
