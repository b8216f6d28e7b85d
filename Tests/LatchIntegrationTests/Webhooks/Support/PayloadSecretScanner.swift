import Foundation

/// Every secret a test knows, in each form it could leak in (text; bytes as hex, base64 and base64url), and a
/// search of a payload for any of them. Hex is matched in either case; the rest exactly.
struct PayloadSecretScanner {
    /// What the secret was (`"password of ann"`, `"auth_tokens.token_hash"`) and the text searched for.
    private(set) var secrets: [(label: String, text: String)] = []
    /// Shorter texts are skipped: a few characters could occur in any payload by chance (a 4-digit year).
    static let shortest = 6

    mutating func add(_ label: String, _ text: String) {
        guard text.count >= Self.shortest else { return }
        secrets.append((label, text))
    }

    /// A digest, a key or a sealed value: its hex (case-insensitive), base64 and unpadded base64url forms.
    mutating func add(_ label: String, bytes: Data) {
        guard bytes.count >= 8 else { return }
        add("\(label) (hex)", bytes.map { String(format: "%02x", $0) }.joined())
        let base64 = bytes.base64EncodedString()
        add("\(label) (base64)", base64)
        add("\(label) (base64, unpadded)", String(base64.prefix { $0 != "=" }))
        add("\(label) (base64url)", String(base64.prefix { $0 != "=" })
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
    }

    /// The labels of the secrets that occur in `payload`.
    func findings(in payload: String) -> [String] {
        let lowered = payload.lowercased()
        return secrets.filter { label, text in
            payload.contains(text) || (label.hasSuffix("(hex)") && lowered.contains(text.lowercased()))
        }.map(\.label)
    }

    /// Candidate tokens in a mail's text: runs of base64url characters long enough to be a token (20 or more),
    /// holding a digit (so an ordinary long word is not taken for one), and 8-digit codes, with or without the
    /// space they are shown with (`1234 5678`).
    static func tokens(inMail text: String) -> [String] {
        var found: [String] = []
        var run = ""
        func flush() {
            if run.count >= 20, run.contains(where: \.isNumber) { found.append(run) }
            run = ""
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || character == "-" || character == "_" {
                run.append(character)
            } else {
                flush()
            }
        }
        flush()
        let digits = text.map { $0.isASCII && $0.isNumber ? $0 : " " }
        let spaced = String(digits).replacingOccurrences(of: #"(?<=\d{4}) (?=\d{4})"#, with: "",
                                                         options: .regularExpression)
        found += spaced.split(separator: " ").filter { $0.count == 8 }.map(String.init)
        return found
    }
}
