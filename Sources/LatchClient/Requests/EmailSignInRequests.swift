/// `POST /v1/signin/email` → 202 `{"status":"signin_sent"}`, the same for every address: an account gets a link
/// and a code bound to `binding`, an unknown address nothing. 404 `not_found` when the server does not offer it.
struct EmailSignInRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/signin/email"
    let email: String
    /// base64url(SHA-256(S)) of the pending attempt's secret.
    let binding: String
}

/// `POST /v1/signin/email/verify` → 200 session and `device_token`, or a second factor's ticket, as
/// `POST /v1/signin`: the link's token, or the code from the same mail with the address, and the secret the request
/// was bound to.
struct VerifyEmailSignInRequest: APIRequest {
    typealias Response = FirstFactorAnswer
    static let path = "/v1/signin/email/verify"
    let token: String?
    let email: String?
    let code: String?
    /// base64url(S).
    let bindingSecret: String

    enum CodingKeys: String, CodingKey {
        case token, email, code
        case bindingSecret = "binding_secret"
    }

    init(token: String, bindingSecret: String) {
        self.token = token
        email = nil
        code = nil
        self.bindingSecret = bindingSecret
    }

    init(email: String, code: String, bindingSecret: String) {
        token = nil
        self.email = email
        self.code = code
        self.bindingSecret = bindingSecret
    }
}
