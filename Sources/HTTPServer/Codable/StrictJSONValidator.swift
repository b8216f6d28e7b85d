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
        var names = Set<[UInt8]>()
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

    /// A string's content with escapes resolved (to compare object names), or nil if it is not a valid string.
    private mutating func string() -> [UInt8]? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var content: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return content
            case UInt8(ascii: "\\"):
                guard let escaped = escape() else { return nil }
                content += escaped
            case 0x00..<0x20:
                return nil  // control characters must be escaped
            default:
                content.append(byte)
            }
        }
        return nil
    }

    private mutating func escape() -> [UInt8]? {
        guard let byte = current else { return nil }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count else { return nil }
            let hex = bytes[index..<index + 4]
            guard hex.allSatisfy(Self.isHexDigit) else { return nil }
            index += 4
            return [UInt8(ascii: "u")] + hex  // names are compared by their escape, which is exact enough here
        default: return nil
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
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
