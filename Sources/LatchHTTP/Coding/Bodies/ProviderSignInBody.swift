import AuthCore
import Foundation

extension FieldLimits {
    /// An id_token: Apple's are about 1 KiB; 16 KiB leaves room for any provider's claims.
    static let idTokenBytes = 16 * 1024
    /// A nonce Latch issued: 43 base64url characters; a nonce id is a uuid.
    static let nonceCharacters = 64
    /// An authorization code (Apple's are about 70 characters).
    static let authorizationCodeBytes = 1024
    /// A given or family name, as the provider sent it.
    static let personNameCharacters = 128
}

/// `{"id_token", "nonce_id", "nonce", "authorization_code"?, "given_name"?, "family_name"?}` for
/// `POST /v1/signin/<provider>`.
struct ProviderSignInBody: APIRequestBody {
    let idToken: String
    let nonceID: String
    let nonce: String
    let authorizationCode: String?
    let givenName: String?
    let familyName: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case idToken = "id_token"
        case nonceID = "nonce_id"
        case nonce
        case authorizationCode = "authorization_code"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    func validate() throws(APIError) {
        try FieldLimits.check(idToken, field: "id_token", maxBytes: FieldLimits.idTokenBytes)
        try FieldLimits.check(nonceID, field: "nonce_id", maxCharacters: FieldLimits.nonceCharacters)
        try FieldLimits.check(nonce, field: "nonce", maxCharacters: FieldLimits.nonceCharacters)
        if let authorizationCode {
            try FieldLimits.check(authorizationCode, field: "authorization_code",
                                  maxBytes: FieldLimits.authorizationCodeBytes)
        }
        if let givenName {
            try FieldLimits.check(givenName, field: "given_name", maxCharacters: FieldLimits.personNameCharacters)
        }
        if let familyName {
            try FieldLimits.check(familyName, field: "family_name", maxCharacters: FieldLimits.personNameCharacters)
        }
    }

    /// The request for AuthCore; a nonce id that is no uuid names no nonce (`invalid_nonce`).
    func request(acceptLanguage: String?) throws -> ProviderSignInRequest {
        guard let uuid = UUID(uuidString: nonceID) else { throw AuthError.invalidNonce }
        return ProviderSignInRequest(idToken: idToken, nonceID: SignInNonceID(uuid), nonce: nonce,
                                     authorizationCode: authorizationCode, givenName: givenName,
                                     familyName: familyName, acceptLanguage: acceptLanguage)
    }
}
