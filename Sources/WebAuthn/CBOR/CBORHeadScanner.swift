/// Walks the heads of CBOR input, without building anything, before libcbor is given it: finds where the first
/// item ends and refuses what Latch does not accept (indefinite lengths, tags, floats, depth).
///
/// libcbor 0.8's `cbor_load` allocates the storage a definite array or map declares before reading its members:
/// six bytes announcing 2^31 members made it commit over 13 GB on this machine before failing. So every declared
/// length is held against the bytes actually left here first (an array member takes at least one byte, a map entry
/// two), and libcbor only ever sees input whose every count is plausible.
struct CBORHeadScanner {
    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The length of the first item in `bytes`: what follows it is not read.
    static func lengthOfFirstItem(in bytes: [UInt8], maxDepth: Int) throws(CBORError) -> Int {
        var scanner = CBORHeadScanner(bytes)
        try scanner.skipItem(depth: 1, maxDepth: maxDepth)
        return scanner.offset
    }

    private var remaining: Int { bytes.count - offset }

    private mutating func skipItem(depth: Int, maxDepth: Int) throws(CBORError) {
        guard depth <= maxDepth else { throw .tooDeep }
        let (major, argument) = try readHead()
        switch major {
        case 0, 1:
            break
        case 2, 3:
            guard argument <= UInt64(remaining) else { throw .malformed }
            offset += Int(argument)
        case 4, 5:
            // A member is at least one byte, an entry two: a count beyond that cannot be honest.
            let itemCount = major == 4 ? argument : argument.multipliedReportingOverflow(by: 2).partialValue
            guard argument <= UInt64(remaining), itemCount <= UInt64(remaining) else { throw .malformed }
            for _ in 0..<itemCount { try skipItem(depth: depth + 1, maxDepth: maxDepth) }
        case 6:
            throw .tag
        default:
            // Major type 7 with a direct value: 20 false, 21 true, 22 null are the only ones WebAuthn uses.
            guard (20...22).contains(argument) else { throw .unsupportedSimpleValue }
        }
    }

    /// The major type and argument of the head at `offset` (RFC 8949 §3), moving past it.
    private mutating func readHead() throws(CBORError) -> (major: UInt8, argument: UInt64) {
        guard remaining >= 1 else { throw .malformed }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5
        let info = initial & 0x1F
        switch info {
        case 0..<24:
            return (major, UInt64(info))
        case 24...27:
            // Floats (major 7 with 25…27) and one-byte simple values (24) are refused, not skipped.
            if major == 7 { throw .unsupportedSimpleValue }
            let width = 1 << Int(info - 24)
            guard remaining >= width else { throw .malformed }
            var argument: UInt64 = 0
            for index in 0..<width { argument = argument << 8 | UInt64(bytes[offset + index]) }
            offset += width
            return (major, argument)
        case 31:
            // An indefinite length for strings, arrays and maps; a stray break or nonsense for the others.
            guard (2...5).contains(major) else { throw .malformed }
            throw .indefiniteLength
        default:
            // 28…30 are reserved.
            throw .malformed
        }
    }
}
