import AuthCore
import Foundation

/// A passkey verifier that answers what it was built with, for tests of the flows around the WebAuthn checks (the
/// real checks are WebAuthn's, tested in WebAuthnTests and against a software authenticator in the integration
/// tests). By default it refuses every ceremony, as a verifier must when nothing checks out.
public struct FakePasskeyVerifier: PasskeyVerifier {
    public var registration: Result<VerifiedPasskeyRegistration, PasskeyRejection>
    public var assertion: Result<VerifiedPasskeyAssertion, PasskeyRejection>

    public init(
        registration: Result<VerifiedPasskeyRegistration, PasskeyRejection> = .failure(PasskeyRejection(.signature)),
        assertion: Result<VerifiedPasskeyAssertion, PasskeyRejection> = .failure(PasskeyRejection(.signature))
    ) {
        self.registration = registration
        self.assertion = assertion
    }

    public func verifyRegistration(_ credential: PasskeyRegistrationCredential, expecting: PasskeyExpectation)
        throws(PasskeyRejection) -> VerifiedPasskeyRegistration
    {
        try registration.get()
    }

    public func verifyAssertion(_ credential: PasskeyAssertionCredential, publicKey: Data, algorithm: PasskeyAlgorithm,
                                expecting: PasskeyExpectation) throws(PasskeyRejection) -> VerifiedPasskeyAssertion
    {
        try assertion.get()
    }
}
