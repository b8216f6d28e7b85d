import Foundation

/// The WebAuthn ceremonies' checks (WebAuthn L3 §7.1 and §7.2) on the bytes a client sent: strict CBOR, the
/// client data, the authenticator data's flags and RP hash, the COSE key and the signature. Kept out of AuthCore
/// as the hasher is (it needs libcbor and OpenSSL); the flows around it spend the challenge, map the credential to
/// its user and judge the sign count.
public protocol PasskeyVerifier: Sendable {
    /// §7.1: `clientDataJSON` (type `webauthn.create`, challenge, origin), the attestation object (format `none`
    /// understood, others recorded as none), `rpIdHash`, UP, UV, BS without BE, AT, the credential id (≤ 1023
    /// bytes, equal to `rawId`), the COSE key (an offered algorithm, a valid key).
    func verifyRegistration(_ credential: PasskeyRegistrationCredential, expecting: PasskeyExpectation)
        throws(PasskeyRejection) -> VerifiedPasskeyRegistration

    /// §7.2: `clientDataJSON` (type `webauthn.get`, challenge, origin), `rpIdHash`, UP, UV, BS without BE, and
    /// the signature over `authenticatorData || SHA-256(clientDataJSON)` with the stored COSE key of `algorithm`.
    func verifyAssertion(_ credential: PasskeyAssertionCredential, publicKey: Data, algorithm: PasskeyAlgorithm,
                         expecting: PasskeyExpectation) throws(PasskeyRejection) -> VerifiedPasskeyAssertion
}
