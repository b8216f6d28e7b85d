import AuthCore
import Foundation

/// The attestation object of a registration (WebAuthn L3 §6.5.4): a strict CBOR map of exactly `fmt` (text),
/// `attStmt` (map) and `authData` (bytes).
struct AttestationObject: Hashable, Sendable {
    /// An attestation statement format identifier (WebAuthn L3 §8.1): printable ASCII, at most 32 characters.
    static let formatCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    static let maxFormatLength = 32

    var format: String
    var statement: [CBORMapEntry]
    var authenticatorData: Data

    /// - Throws: `.cbor` for anything but that map, or a format identifier that is not one (it would be stored).
    init(_ data: Data) throws(PasskeyRejection) {
        let value: CBORValue
        do {
            value = try StrictCBOR.decode(data)
        } catch {
            throw PasskeyRejection(.cbor)
        }
        guard let entries = value.entries, entries.count == 3 else { throw PasskeyRejection(.cbor) }
        func member(_ name: String) -> CBORValue? { entries.first { $0.key == .text(name) }?.value }
        guard let format = member("fmt")?.text, let statement = member("attStmt")?.entries,
              let authenticatorData = member("authData")?.bytes
        else { throw PasskeyRejection(.cbor) }
        guard (1...Self.maxFormatLength).contains(format.count), format.allSatisfy(Self.formatCharacters.contains)
        else { throw PasskeyRejection(.cbor) }
        self.format = format
        self.statement = statement
        self.authenticatorData = authenticatorData
    }
}
