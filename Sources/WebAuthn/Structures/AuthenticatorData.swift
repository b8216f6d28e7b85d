import AuthCore
import Foundation

/// Authenticator data (WebAuthn L3 §6.1): `rpIdHash` (32) `flags` (1) `signCount` (4, big-endian), then the
/// attested credential data when AT is set, then the extensions map when ED is set, and nothing else.
struct AuthenticatorData: Hashable, Sendable {
    static let rpIDHashByteCount = 32
    /// The fixed part: hash, flags and counter.
    static let minimumByteCount = 37

    var rpIDHash: Data
    var flags: AuthenticatorFlags
    var signCount: UInt32
    var attestedCredentialData: AttestedCredentialData?
    /// The extension outputs (present exactly when ED is set), a strict CBOR map Latch reads no further.
    var extensions: CBORValue?

    /// - Throws: `.malformed` when the bytes are cut short (the fixed part, the attested credential data);
    ///   `.cbor` when the COSE key or the extensions are not strict CBOR or the extensions not a map;
    ///   `.attestedCredentialData` for bytes after the attested credential data that no flag accounts for, and
    ///   `.malformed` for such bytes in data without it.
    init(_ data: Data) throws(PasskeyRejection) {
        // A slice keeps its parent's indices; the offsets below count from zero.
        let bytes = Data([UInt8](data))
        guard bytes.count >= Self.minimumByteCount else { throw PasskeyRejection(.malformed) }
        rpIDHash = bytes.prefix(Self.rpIDHashByteCount)
        flags = AuthenticatorFlags(rawValue: bytes[Self.rpIDHashByteCount])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = bytes.dropFirst(Self.minimumByteCount)
        if flags.contains(.attestedCredentialData) {
            attestedCredentialData = try Self.attestedCredentialData(from: &rest)
        }
        if flags.contains(.extensionData) {
            let decoded: (value: CBORValue, length: Int)
            do {
                decoded = try StrictCBOR.decodeFirst(Data(rest))
            } catch {
                throw PasskeyRejection(.cbor)
            }
            guard decoded.value.entries != nil else { throw PasskeyRejection(.cbor) }
            extensions = decoded.value
            rest = rest.dropFirst(decoded.length)
        }
        guard rest.isEmpty else {
            throw PasskeyRejection(attestedCredentialData == nil ? .malformed : .attestedCredentialData)
        }
    }

    /// Reads aaguid (16), credential id length (2, big-endian), credential id and the COSE key off the front of
    /// `rest`. The key's end is where its CBOR item ends: nothing else marks it.
    private static func attestedCredentialData(from rest: inout Data) throws(PasskeyRejection)
        -> AttestedCredentialData
    {
        let headerByteCount = AttestedCredentialData.aaguidByteCount + 2
        guard rest.count >= headerByteCount else { throw PasskeyRejection(.malformed) }
        let aaguid = Data(rest.prefix(AttestedCredentialData.aaguidByteCount))
        let lengthIndex = rest.startIndex + AttestedCredentialData.aaguidByteCount
        let idLength = Int(rest[lengthIndex]) << 8 | Int(rest[lengthIndex + 1])
        rest = rest.dropFirst(headerByteCount)
        guard rest.count >= idLength else { throw PasskeyRejection(.malformed) }
        let credentialID = Data(rest.prefix(idLength))
        rest = rest.dropFirst(idLength)
        let key: (value: CBORValue, length: Int)
        do {
            key = try StrictCBOR.decodeFirst(Data(rest))
        } catch {
            throw PasskeyRejection(.cbor)
        }
        let keyBytes = Data(rest.prefix(key.length))
        rest = rest.dropFirst(key.length)
        return AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, publicKeyBytes: keyBytes,
                                      publicKey: key.value)
    }
}
