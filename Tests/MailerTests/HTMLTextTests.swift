@testable import Mailer
import Testing

@Suite struct HTMLTextTests {
    @Test func escapesTheFiveSpecialCharacters() {
        #expect(HTMLText.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(HTMLText.escape("plain é") == "plain é")
        #expect(HTMLText.escape("&amp;") == "&amp;amp;")
    }
}
