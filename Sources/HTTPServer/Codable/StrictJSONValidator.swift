/// Checks that a body is exactly one RFC 8259 JSON text before Foundation decodes it.
///
/// Foundation's parser is lenient (it accepts trailing commas, and the first of two duplicate keys wins). A proxy
/// or firewall in front of the server may read such a body differently than the server does, so the API refuses
/// anything that is not strict JSON, duplicate object names included. Nesting is bounded so a hostile body cannot
/// exhaust the stack.
struct StrictJSONValidator {
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    /// Whether `bytes` is one strict JSON text with no duplicate names in any object.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = StrictJSONValidator(bytes: bytes)
        guard validator.value(depth: 0) else { return false }
        validator.skipWhitespace()
        return validator.index == bytes.count
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        skipWhitespace()
        guard let byte = current, depth <= Self.maximumDepth else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> Bool {
        index += 1  // {
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        // Names are compared as decoded Swift strings, the way Foundation keys its containers: `"\u0065mail"` is
        // `"email"`, and two canonically equivalent spellings are one name to Foundation, so one name here too.
        var names = Set<String>()
        while true {
            skipWhitespace()
            guard let name = string(), names.insert(name).inserted else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")), value(depth: depth) else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        index += 1  // [
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return true }
        while true {
            guard value(depth: depth) else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// A string's content with every escape resolved (to compare object names), or nil if it is not a valid string:
    /// an unescaped control character, an unknown escape, a lone surrogate or bytes that are not UTF-8.
    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var content: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: content, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return nil }
                UTF8.encode(scalar) { content.append($0) }
            case 0x00..<0x20:
                return nil  // control characters must be escaped
            default:
                content.append(byte)
            }
        }
        return nil
    }

    /// The character one escape stands for; `index` is just past the backslash.
    private mutating func escape() -> Unicode.Scalar? {
        guard let byte = current else { return nil }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return unicodeEscape()
        default: return nil
        }
    }

    /// `XXXX` after `\u`, or a UTF-16 surrogate pair `XXXX\uXXXX`. A lone surrogate encodes no character, so it is
    /// refused rather than guessed at (Foundation and a proxy might each replace it differently).
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hexCodeUnit() else { return nil }
        switch unit {
        case 0xD800...0xDBFF:
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hexCodeUnit(),
                  (0xDC00...0xDFFF).contains(low)
            else { return nil }
            return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(unit)
        }
    }

    /// Four hex digits as one UTF-16 code unit.
    private mutating func hexCodeUnit() -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = ASCIIHex.value(byte) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        index += 4
        return unit
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else { return false }
        index += expected.count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // a leading zero stands alone
        } else {
            guard digits() else { return false }
        }
        if consume(UInt8(ascii: ".")) { guard digits() else { return false } }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() else { return false }
        }
        return true
    }

    private mutating func digits() -> Bool {
        let start = index
        while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
        return index > start
    }
}
