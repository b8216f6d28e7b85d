import HTMLEscaping
import Testing

@Suite struct HTMLTextTests {
    @Test func escapesTheFiveSpecialCharacters() {
        #expect(HTMLText.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(HTMLText.escape("plain é") == "plain é")
        #expect(HTMLText.escape("&amp;") == "&amp;amp;")
    }

    /// A combining mark joins the quote before it into one Character; matching per Character would miss it.
    @Test(arguments: ["\"\u{301}", "'\u{20DD}", "<\u{338}", ">\u{327}", "&\u{300}"])
    func aCombiningMarkCannotHideASpecialCharacter(_ text: String) {
        let escaped = HTMLText.escape(text)
        #expect(!escaped.unicodeScalars.contains { "\"'<>".unicodeScalars.contains($0) }, "\(escaped.debugDescription)")
        #expect(escaped.hasPrefix("&"))
    }
}
