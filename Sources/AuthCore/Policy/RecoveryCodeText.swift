/// Recovery codes as people read and type them: 16 characters of Crockford's base32 (80 bits), shown
/// `XXXX-XXXX-XXXX-XXXX`. Typed ones are forgiven what Crockford forgives (case, `O` for 0, `I`/`L` for 1, hyphens
/// and spaces), so a code copied by hand still works.
public enum RecoveryCodeText {
    /// Crockford's alphabet: no I, L, O, U.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 16

    /// `code` (16 alphabet characters) in four groups of four.
    public static func format(_ code: String) -> String {
        let characters = Array(code)
        return stride(from: 0, to: characters.count, by: 4)
            .map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }

    /// The 16 characters a typed code stands for, or nil when it cannot be one.
    public static func normalized(_ typed: String) -> String? {
        var result: [Character] = []
        for character in typed.uppercased() {
            switch character {
            case "-", " ": continue
            case "O": result.append("0")
            case "I", "L": result.append("1")
            default:
                guard alphabet.contains(character) else { return nil }
                result.append(character)
            }
            if result.count > length { return nil }
        }
        return result.count == length ? String(result) : nil
    }
}
