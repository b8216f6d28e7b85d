/// What a command prints on success: text for people and a JSON document for `--json`, built together so the
/// two never disagree about what happened.
struct CommandOutput {
    var text: String
    var json: JSONValue

    init(text: String, json: JSONValue) {
        self.text = text.hasSuffix("\n") ? text : text + "\n"
        self.json = json
    }

    /// The form the invocation asked for. Values are escaped where they are put into the text; this last pass
    /// makes sure that a value a command forgot to escape still reaches the terminal without its controls.
    func rendered(asJSON: Bool) -> String {
        asJSON ? json.encoded() : VisibleText.escaped(text, keepingNewlines: true)
    }
}
