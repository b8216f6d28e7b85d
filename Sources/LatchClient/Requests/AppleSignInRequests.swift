import Foundation

/// `POST /v1/signin/apple/nonce` (no bearer) `{}` → 200 `{"nonce_id", "nonce", "expires_in"}`; 404 `not_found` when
/// the server has Sign in with Apple off.
struct AppleSignInNonceRequest: APIRequest {
    typealias Response = AppleSignInNonce
    static let path = "/v1/signin/apple/nonce"
}

/// `POST /v1/signin/apple` (no bearer) `{"id_token", "nonce_id", "nonce", "authorization_code"?, "given_name"?,
/// "family_name"?}` → 200 session and `device_token`, or the second step's ticket, as `POST /v1/signin`
/// (`FirstFactorAnswer`). The optional fields are left out when nil, never sent as null.
struct AppleSignInRequest: APIRequest {
    typealias Response = FirstFactorAnswer
    static let path = "/v1/signin/apple"
    let idToken: String
    let nonceID: UUID
    let nonce: String
    let authorizationCode: String?
    let givenName: String?
    let familyName: String?

    enum CodingKeys: String, CodingKey {
        case nonce
        case idToken = "id_token"
        case nonceID = "nonce_id"
        case authorizationCode = "authorization_code"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(idToken, forKey: .idToken)
        try container.encode(nonceID.uuidString.lowercased(), forKey: .nonceID)
        try container.encode(nonce, forKey: .nonce)
        try container.encodeIfPresent(authorizationCode, forKey: .authorizationCode)
        try container.encodeIfPresent(givenName, forKey: .givenName)
        try container.encodeIfPresent(familyName, forKey: .familyName)
    }
}

/// `GET /v1/me/identities` (bearer) → 200 `{"identities":[…]}`.
struct LinkedIdentitiesRequest: APIRequest {
    typealias Response = LinkedIdentityList
    static let method = "GET"
    static let path = "/v1/me/identities"
}

/// `DELETE /v1/me/identities/{id}` (bearer, privileged) → 204.
struct UnlinkIdentityRequest: APIRequest {
    typealias Response = NoContent
    static let method = "DELETE"
    static let path = "/v1/me/identities/{id}"
    static let sendsBody = false
    let id: UUID

    var resolvedPath: String { "/v1/me/identities/" + id.uuidString.lowercased() }
}
