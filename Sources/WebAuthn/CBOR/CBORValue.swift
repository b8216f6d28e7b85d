import Foundation

/// One CBOR data item, of the kinds WebAuthn's structures are made of (attestation objects, authenticator
/// extensions, COSE keys). Tags, floats, `undefined` and other simple values never get this far: `StrictCBOR`
/// refuses them.
enum CBORValue: Hashable, Sendable {
    case unsigned(UInt64)
    /// The integer −1 − n, for this n (major type 1), so that all of CBOR's negative range fits.
    case negative(UInt64)
    case bytes(Data)
    case text(String)
    case array([CBORValue])
    /// Entries in the order sent; keys are unique (`StrictCBOR` refuses a duplicate).
    case map([CBORMapEntry])
    case bool(Bool)
    case null

    /// The value as a Swift `Int`, if it is an integer that fits: how COSE labels and algorithms are read.
    var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    var bytes: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    var text: String? {
        if case .text(let string) = self { return string }
        return nil
    }

    var entries: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }
}

/// One key/value pair of a CBOR map.
struct CBORMapEntry: Hashable, Sendable {
    var key: CBORValue
    var value: CBORValue
}
