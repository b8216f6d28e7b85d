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

    /// Foundation decodes names before it looks them up, so an escaped spelling of a name already present is the
    /// same name to it: a duplicate.
    @Test(arguments: [
        #"{"email":"a@x","\u0065mail":"b@x"}"#,
        #"{"\u0065\u006D\u0061\u0069\u006c":"a@x","email":"b@x"}"#,
        #"{"a":{"b":1,"\u0062":2}}"#,
        #"{"a/b":1,"a\/b":2}"#,
        #"{"\n":1,"\u000a":2}"#,
        #"{"\t\r\b\f":1,"\u0009\u000D\u0008\u000C":2}"#,
        #"{"\"\\":1,"\u0022\u005c":2}"#,
        #"{"é":1,"\u00e9":2}"#,
        #"{"😀":1,"\ud83d\ude00":2}"#,
        #"{"\uD83D\uDE00":1,"\ud83d\ude00":2}"#,
        #"{"é":1,"e\u0301":2}"#,
    ])
    func refusesEscapedDuplicateNames(text: String) {
        #expect(!StrictJSONValidator.isValid(Array(text.utf8)))
    }

    @Test(arguments: [
        #"{"a":1,"\u0062":2}"#, #"{"a":1,"a\u0000":2}"#, #"{"\ud83d\ude00":"\ud83d\ude01"}"#, #"{"a":{"a":1},"b":{"a":1}}"#,
        #"["\u0065mail","email"]"#, #"{"x":"\u0065mail","y":"email"}"#,
    ])
    func acceptsDistinctNames(text: String) {
        #expect(StrictJSONValidator.isValid(Array(text.utf8)))
    }

    /// A lone surrogate is no character: Foundation and a proxy might each substitute something different for it.
    @Test(arguments: [
        #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"\ud83d":1}"#, #"{"a":"\ud83d\u0041"}"#, #"{"a":"\ud83dx"}"#,
        #"{"a":"\ude00\ud83d"}"#, #"{"a":"\ud83d\ud83d"}"#, #"{"a":"\ud83d\u"}"#,
    ])
    func refusesLoneSurrogates(text: String) {
        #expect(!StrictJSONValidator.isValid(Array(text.utf8)))
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(!StrictJSONValidator.isValid(Array(#"{"a":""#.utf8) + [0xC3] + Array(#""}"#.utf8)))
        #expect(!StrictJSONValidator.isValid(Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)))
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(!StrictJSONValidator.isValid(Array(deep.utf8)))
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(StrictJSONValidator.isValid(Array(fine.utf8)))
    }
}
