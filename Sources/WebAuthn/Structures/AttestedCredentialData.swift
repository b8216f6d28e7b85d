import Foundation

/// The attested credential data inside registration authenticator data (WebAuthn L3 §6.5.2).
struct AttestedCredentialData: Hashable, Sendable {
    static let aaguidByteCount = 16

    /// 16 bytes: the authenticator model, all zero when it does not say.
    var aaguid: Data
    /// As long as the two length bytes say (up to 65535 here; the ceremony holds it to 1…1023).
    var credentialID: Data
    /// The COSE key's bytes exactly as sent: what is stored and parsed again for each assertion.
    var publicKeyBytes: Data
    /// The same key, decoded.
    var publicKey: CBORValue
}
