// AuthenticationServices' passkey API and the JSON of the server, both ways: the options become the platform's
// requests, and its results the `…ResponseJSON` the server takes. Apple platforms only (there is no
// AuthenticationServices elsewhere); the JSON types themselves are everywhere, so other platforms hand the options to
// their own API (Credential Manager takes the JSON as it is).
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
import AuthenticationServices
import Foundation

extension PasskeyRegistrationOptions {
    /// The platform's request for a new passkey with these options, for an `ASAuthorizationController`: the RP ID,
    /// the challenge, the user handle and name, user verification and attestation as the server asked, and (from
    /// iOS 17.4) the user's passkeys as excluded credentials. Its result goes to `RegistrationResponseJSON.init(_:)`.
    /// - Throws: `invalidResponse` when the options name no RP ID (an app has no origin to default to).
    public func platformRequest() throws(LatchError)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
        guard let rpID = publicKey.rp.id, !rpID.isEmpty else {
            throw .invalidResponse("passkey registration options without rp.id")
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
        let request = provider.createCredentialRegistrationRequest(
            challenge: publicKey.challenge, name: publicKey.user.name, userID: publicKey.user.id)
        request.displayName = publicKey.user.displayName
        if let verification = publicKey.authenticatorSelection?.userVerification {
            request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                rawValue: verification)
        }
        if let attestation = publicKey.attestation {
            request.attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind(rawValue: attestation)
        }
        if #available(iOS 17.4, *) {
            request.excludedCredentials = (publicKey.excludeCredentials ?? []).map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id)
            }
        }
        return request
    }
}

extension PasskeyAuthenticationOptions {
    /// The platform's request for an assertion with these options, for an `ASAuthorizationController`: the RP ID,
    /// the challenge and user verification as the server asked, and the allowed credentials if it listed any (Latch
    /// lists none: the platform offers every passkey of the RP ID). For AutoFill, perform it with
    /// `performAutoFillAssistedRequests()`. Its result goes to `AuthenticationResponseJSON.init(_:)`.
    /// - Throws: `invalidResponse` when the options name no RP ID.
    public func platformRequest() throws(LatchError) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        guard let rpID = publicKey.rpId, !rpID.isEmpty else {
            throw .invalidResponse("passkey authentication options without rpId")
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
        let request = provider.createCredentialAssertionRequest(challenge: publicKey.challenge)
        if let verification = publicKey.userVerification {
            request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                rawValue: verification)
        }
        if let allowed = publicKey.allowCredentials, !allowed.isEmpty {
            request.allowedCredentials = allowed.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id)
            }
        }
        return request
    }
}

extension RegistrationResponseJSON {
    /// The server's form of a new platform passkey (`authorizationController(controller:didCompleteWithAuthorization:)`
    /// with an `ASAuthorizationPlatformPublicKeyCredentialRegistration` as its credential).
    /// - Throws: `invalidRequest` when the platform gave no attestation object (there is then nothing to register).
    public init(_ registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) throws(LatchError) {
        guard let attestationObject = registration.rawAttestationObject else {
            throw .invalidRequest(message: "the platform returned no attestation object")
        }
        self.init(
            rawID: registration.credentialID,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: registration.rawClientDataJSON, attestationObject: attestationObject),
            authenticatorAttachment: Self.attachment(registration.attachment))
    }

    /// WebAuthn's name of an attachment (`AuthenticatorAttachment`); nil for one this code does not know.
    static func attachment(_ attachment: ASAuthorizationPublicKeyCredentialAttachment) -> String? {
        switch attachment {
        case .platform: "platform"
        case .crossPlatform: "cross-platform"
        @unknown default: nil
        }
    }
}

extension AuthenticationResponseJSON {
    /// The server's form of a platform passkey's assertion (`authorizationController(controller:
    /// didCompleteWithAuthorization:)` with an `ASAuthorizationPlatformPublicKeyCredentialAssertion`).
    public init(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) {
        // Implicitly unwrapped in the SDK; read as optionals, so that a missing one is refused by the server
        // (an empty signature does not verify) instead of trapping here.
        let authenticatorData: Data? = assertion.rawAuthenticatorData
        let signature: Data? = assertion.signature
        let userHandle: Data? = assertion.userID
        self.init(
            rawID: assertion.credentialID,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: assertion.rawClientDataJSON, authenticatorData: authenticatorData ?? Data(),
                signature: signature ?? Data(), userHandle: userHandle),
            authenticatorAttachment: RegistrationResponseJSON.attachment(assertion.attachment))
    }
}
#endif
