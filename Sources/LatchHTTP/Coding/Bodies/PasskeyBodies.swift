import AuthCore
import Foundation

extension FieldLimits {
    /// A challenge id is a uuid.
    static let challengeIDCharacters = 64
    /// A passkey's name, as a factor's.
    static let passkeyNameCharacters = 64
    /// WebAuthn L3 §5.8.1 caps credential ids at 1023 bytes (1364 base64url characters).
    static let credentialIDCharacters = 1364
    /// Each base64url member of a credential: clientDataJSON, attestationObject, authenticatorData, signature.
    /// A generous bound (an RSA-4096 registration is under 2 KiB) that keeps a body far below the server's limit.
    static let credentialMemberCharacters = 16 * 1024
}

/// `PublicKeyCredential.toJSON()` of a registration (WebAuthn L3 `RegistrationResponseJSON`). Members Latch does
/// not read (`authenticatorAttachment`, `clientExtensionResults`, the convenience `publicKey`…) are ignored, as
/// browsers add new ones.
struct RegistrationResponseJSON: Decodable {
    struct Response: Decodable {
        let clientDataJSON: String
        let attestationObject: String
        let transports: [String]?
    }

    let id: String
    let rawId: String
    let type: String
    let response: Response

    /// The bytes, or `invalid_request` naming the member that is not unpadded base64url or is too long.
    func credential() throws(APIError) -> PasskeyRegistrationCredential {
        let rawID = try passkeyCredentialID(id: id, rawId: rawId, type: type)
        let transports = response.transports ?? []
        guard transports.count <= 16, transports.allSatisfy({ $0.utf8.count <= 32 }) else {
            throw .invalidField("credential.response.transports")
        }
        return PasskeyRegistrationCredential(
            rawID: rawID,
            clientDataJSON: try passkeyBytes(response.clientDataJSON, field: "credential.response.clientDataJSON"),
            attestationObject: try passkeyBytes(response.attestationObject,
                                                field: "credential.response.attestationObject"),
            transports: transports)
    }
}

/// `PublicKeyCredential.toJSON()` of an assertion (WebAuthn L3 `AuthenticationResponseJSON`).
struct AuthenticationResponseJSON: Decodable {
    struct Response: Decodable {
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
        let userHandle: String?
    }

    let id: String
    let rawId: String
    let type: String
    let response: Response

    func credential() throws(APIError) -> PasskeyAssertionCredential {
        PasskeyAssertionCredential(
            rawID: try passkeyCredentialID(id: id, rawId: rawId, type: type),
            clientDataJSON: try passkeyBytes(response.clientDataJSON, field: "credential.response.clientDataJSON"),
            authenticatorData: try passkeyBytes(response.authenticatorData,
                                                field: "credential.response.authenticatorData"),
            signature: try passkeyBytes(response.signature, field: "credential.response.signature"),
            userHandle: try response.userHandle.map { text throws(APIError) in
                try passkeyBytes(text, field: "credential.response.userHandle")
            })
    }
}

/// `rawId` decoded, after checking `id` is the same text and `type` is `public-key`.
private func passkeyCredentialID(id: String, rawId: String, type: String) throws(APIError) -> Data {
    guard type == "public-key" else { throw .invalidField("credential.type") }
    guard id == rawId else { throw .invalidField("credential.id") }
    guard rawId.utf8.count <= FieldLimits.credentialIDCharacters, let bytes = Base64URLText.decode(rawId),
          !bytes.isEmpty
    else { throw .invalidField("credential.rawId") }
    return bytes
}

private func passkeyBytes(_ text: String, field: String) throws(APIError) -> Data {
    guard text.utf8.count <= FieldLimits.credentialMemberCharacters, let bytes = Base64URLText.decode(text) else {
        throw .invalidField(field)
    }
    return bytes
}

/// A challenge id: a uuid, or `invalid_passkey_challenge` as any unknown one (it names nothing).
func passkeyChallengeID(_ text: String) throws -> PasskeyChallengeID {
    guard let uuid = UUID(uuidString: text) else { throw AuthError.invalidPasskeyChallenge }
    return PasskeyChallengeID(uuid)
}

/// `{"challenge_id", "credential", "name"?}` for `POST /v1/passkeys/registration/verify`.
struct PasskeyRegistrationBody: APIRequestBody {
    let challengeID: String
    let credential: RegistrationResponseJSON
    let name: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case challengeID = "challenge_id"
        case credential
        case name
    }

    func validate() throws(APIError) {
        try FieldLimits.check(challengeID, field: "challenge_id", maxCharacters: FieldLimits.challengeIDCharacters)
        if let name { try FieldLimits.checkName(name, field: "name", maxCharacters: FieldLimits.passkeyNameCharacters) }
        _ = try credential.credential()
    }
}

/// `{"challenge_id", "credential"}` for `POST /v1/passkeys/authentication/verify`.
struct PasskeyAuthenticationBody: APIRequestBody {
    let challengeID: String
    let credential: AuthenticationResponseJSON

    enum CodingKeys: String, CodingKey, CaseIterable {
        case challengeID = "challenge_id"
        case credential
    }

    func validate() throws(APIError) {
        try FieldLimits.check(challengeID, field: "challenge_id", maxCharacters: FieldLimits.challengeIDCharacters)
        _ = try credential.credential()
    }
}

/// `{"name"}` for `PATCH /v1/passkeys/{id}`.
struct PasskeyRenameBody: APIRequestBody {
    let name: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
    }

    func validate() throws(APIError) {
        try FieldLimits.checkName(name, field: "name", maxCharacters: FieldLimits.passkeyNameCharacters)
    }
}
