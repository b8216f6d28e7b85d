/// An argument given by position (`latchctl users show EMAIL`).
struct PositionalSpec: Equatable {
    /// The key it is stored under in `ParsedArguments` and its placeholder in help (`EMAIL`).
    var name: String
    var help: String
    var isRequired: Bool = true

    var synopsis: String { isRequired ? name : "[\(name)]" }
}
