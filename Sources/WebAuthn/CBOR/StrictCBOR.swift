import CCBOR
import Foundation

/// CBOR as WebAuthn's structures may be sent to Latch: one definite-length item of integers, strings, arrays,
/// maps, booleans and null, no duplicate map key, nothing after it, no deeper than `maxDepth`, no larger than
/// `maxByteCount`. Loaded by libcbor once `CBORHeadScanner` has found the input sound, and handed on as a
/// `CBORValue`, so no libcbor item outlives the call.
///
/// Non-minimal integer and length encodings and unsorted map keys are accepted: RFC 8949 leaves them well-formed,
/// and WebAuthn relying parties are told to take what browsers send. Duplicate keys are compared as values, so
/// `1` and its two-byte spelling are the same key.
enum StrictCBOR {
    /// Larger than any attestation object a passkey needs (an RSA-4096 key and a certificate chain fit).
    static let maxByteCount = 64 * 1024
    /// Arrays and maps within arrays and maps: WebAuthn's deepest (an attestation statement's chain) is 3.
    static let maxDepth = 16

    /// The one item `data` holds.
    static func decode(_ data: Data) throws(CBORError) -> CBORValue {
        let (value, length) = try decodeFirst(data)
        guard length == data.count else { throw .trailingBytes }
        return value
    }

    /// The first item in `data`, and how many bytes it took: for the COSE key inside authenticator data, which
    /// only CBOR itself says the end of.
    static func decodeFirst(_ data: Data) throws(CBORError) -> (value: CBORValue, length: Int) {
        guard data.count <= maxByteCount else { throw .tooLarge }
        let bytes = [UInt8](data)
        let length = try CBORHeadScanner.lengthOfFirstItem(in: bytes, maxDepth: maxDepth)
        return (try load(bytes[0..<length]), length)
    }

    /// libcbor's reading of exactly `bytes` (one item, as the scanner measured it).
    private static func load(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> CBORValue {
        var result = cbor_load_result()
        let loaded: UnsafeMutablePointer<cbor_item_t>? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return cbor_load(base, buffer.count, &result)
        }
        guard let item = loaded else { throw .malformed }
        defer {
            var owned: UnsafeMutablePointer<cbor_item_t>? = item
            cbor_decref(&owned)
        }
        // The scanner and libcbor must agree on where the item ends; if they do not, trust neither.
        guard result.error.code == CBOR_ERR_NONE, result.read == bytes.count else { throw .malformed }
        return try CBORItemConversion.value(of: item)
    }
}
