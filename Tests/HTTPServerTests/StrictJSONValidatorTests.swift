import Testing
@testable import HTTPServer

@Suite struct StrictJSONValidatorTests {
    @Test(arguments: [
        #"{}"#, #"[]"#, #" {"a": 1, "b": [true, false, null, -0.5e+10, "x\"\\\/\b\f\n\r\t\u00e9"]} "#, #""text""#,
        #"0"#, #"{"a":{"a":{"a":1}}}"#, #"{"é": "unicode ✓"}"#,
    ])
    func acceptsStrictJSON(text: String) {
        #expect(StrictJSONValidator.isValid(Array(text.utf8)))
    }

    @Test(arguments: [
        #"{"a":1,}"#, #"[1,]"#, #"{"a":1,"a":2}"#, #"{"a":1} x"#, #"{'a':1}"#, #"{a:1}"#, #"// c"#, #"{"a":01}"#,
        #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#, "{\"a\":\"\n\"}", #"{"a" 1}"#,
        #"{"a":tru}"#, #"NaN"#, "", " ", #"{"a":1"#, #"["#,
    ])
    func refusesEverythingElse(text: String) {
        #expect(!StrictJSONValidator.isValid(Array(text.utf8)))
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(!StrictJSONValidator.isValid(Array(deep.utf8)))
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(StrictJSONValidator.isValid(Array(fine.utf8)))
    }
}
