/// An argument given by position (`latchctl users show EMAIL`).
struct PositionalSpec: Equatable {
    /// The key it is stored under in `ParsedArguments` and its placeholder in help (`EMAIL`).
    var name: String
    var help: String
    var isRequired: Bool = true
    /// The value may begin with `-` (a key id is base64url, so one in 32 does): a token that names no option is then
    /// taken as this argument instead of being refused as an unknown option.
    var mayStartWithDash: Bool = false

    var synopsis: String { isRequired ? name : "[\(name)]" }
}
