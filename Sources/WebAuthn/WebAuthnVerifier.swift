import AuthCore
import Foundation
import LatchCrypto

/// `PasskeyVerifier` on libcbor and OpenSSL: WebAuthn Level 3's registration (§7.1) and authentication (§7.2)
/// checks on the bytes a client sent, each failure named by one `PasskeyRejection.Reason`, checked in the order the
/// reasons are listed so that a response with several faults is always named by the first.
///
/// Holds nothing: every call parses and loads what it needs and frees it before returning.
public struct WebAuthnVerifier: PasskeyVerifier {
    /// The longest credential id WebAuthn allows (L3 §4, "Credential ID").
    static let credentialIDLengths = 1...1023

    public init() {}

    public func verifyRegistration(_ credential: PasskeyRegistrationCredential,
                                   expecting expectation: PasskeyExpectation) throws(PasskeyRejection)
        -> VerifiedPasskeyRegistration
    {
        try CollectedClientData.verify(credential.clientDataJSON, type: "webauthn.create", expecting: expectation)
        let attestation = try AttestationObject(credential.attestationObject)
        let authenticatorData = try AuthenticatorData(attestation.authenticatorData)
        try Self.checkCommon(authenticatorData, expecting: expectation)
        guard let attested = authenticatorData.attestedCredentialData else {
            throw PasskeyRejection(.attestedCredentialData)
        }
        guard Self.credentialIDLengths.contains(attested.credentialID.count), attested.credentialID == credential.rawID
        else { throw PasskeyRejection(.credentialID) }
        let key = try COSEKey.parse(attested.publicKey, allowing: expectation.algorithms)
        _ = try CredentialPublicKey(key)
        // `none` is the only format Latch asks for and understands; another is recorded as sent and trusted no
        // more than `none` (its statement is not verified: Latch has no trust anchors to verify it against).
        if attestation.format == "none", !attestation.statement.isEmpty {
            throw PasskeyRejection(.attestationStatement)
        }
        return VerifiedPasskeyRegistration(
            credentialID: attested.credentialID, publicKey: attested.publicKeyBytes, algorithm: key.algorithm,
            signCount: authenticatorData.signCount,
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backedUp: authenticatorData.flags.contains(.backedUp), aaguid: attested.aaguid,
            attestationFormat: attestation.format
        )
    }

    public func verifyAssertion(_ credential: PasskeyAssertionCredential, publicKey: Data, algorithm: PasskeyAlgorithm,
                                expecting expectation: PasskeyExpectation) throws(PasskeyRejection)
        -> VerifiedPasskeyAssertion
    {
        try CollectedClientData.verify(credential.clientDataJSON, type: "webauthn.get", expecting: expectation)
        let authenticatorData = try AuthenticatorData(credential.authenticatorData)
        try Self.checkCommon(authenticatorData, expecting: expectation)
        // An assertion carries no new credential.
        guard authenticatorData.attestedCredentialData == nil else { throw PasskeyRejection(.attestedCredentialData) }
        let storedKey: CBORValue
        do {
            storedKey = try StrictCBOR.decode(publicKey)
        } catch {
            throw PasskeyRejection(.publicKey)
        }
        let key = try CredentialPublicKey(try COSEKey.parse(storedKey, allowing: [algorithm]))
        // §7.2 steps 19–20: the signature is over the authenticator data as sent and the hash of the client data as
        // sent, never over anything re-encoded.
        let message = credential.authenticatorData + SHA256.hash(credential.clientDataJSON)
        guard key.isValidSignature(credential.signature, for: message) else { throw PasskeyRejection(.signature) }
        return VerifiedPasskeyAssertion(
            signCount: authenticatorData.signCount,
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backedUp: authenticatorData.flags.contains(.backedUp)
        )
    }

    /// The checks both ceremonies make on authenticator data: the RP ID's hash, user presence, user verification
    /// (Latch asks for it always), and BS only with BE (§7.1 steps 13–17, §7.2 steps 15–18).
    private static func checkCommon(_ data: AuthenticatorData, expecting expectation: PasskeyExpectation)
        throws(PasskeyRejection)
    {
        guard ConstantTime.equals(data.rpIDHash, SHA256.hash(expectation.rpID)) else {
            throw PasskeyRejection(.rpIDHash)
        }
        guard data.flags.contains(.userPresent) else { throw PasskeyRejection(.userPresence) }
        guard data.flags.contains(.userVerified) else { throw PasskeyRejection(.userVerification) }
        guard data.flags.contains(.backupEligible) || !data.flags.contains(.backedUp) else {
            throw PasskeyRejection(.backupState)
        }
    }
}
