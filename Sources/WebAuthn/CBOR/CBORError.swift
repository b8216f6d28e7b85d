/// Why bytes are not strict CBOR: one case per rule, so that a test can tell which rule refused them.
enum CBORError: Error, Hashable, Sendable {
    /// More than `StrictCBOR.maxByteCount` bytes.
    case tooLarge
    /// Not well-formed (RFC 8949 §3): cut short, a reserved additional-information value, a stray break, text
    /// that is not UTF-8, or an item libcbor could not load.
    case malformed
    /// An indefinite-length string, array or map: WebAuthn's CBOR is definite (CTAP2 canonical form).
    case indefiniteLength
    /// A tag: WebAuthn's structures have none.
    case tag
    /// A float, `undefined` or a simple value other than `false`, `true` and `null`.
    case unsupportedSimpleValue
    /// Arrays and maps nested deeper than `StrictCBOR.maxDepth`.
    case tooDeep
    /// Bytes after the one item the input should hold.
    case trailingBytes
    /// A map with the same key twice: two readers could take different values.
    case duplicateKey
}
