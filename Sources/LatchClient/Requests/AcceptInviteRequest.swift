/// `POST /v1/invite/accept` → 200 session: the invitation's token, or the code beside it with the address, and the
/// account's first password; the address is confirmed and the user signed in.
struct AcceptInviteRequest: APIRequest {
    typealias Response = Session
    static let path = "/v1/invite/accept"
    let token: String?
    let email: String?
    let code: String?
    let password: String

    init(token: String, password: String) {
        self.token = token
        email = nil
        code = nil
        self.password = password
    }

    init(email: String, code: String, password: String) {
        token = nil
        self.email = email
        self.code = code
        self.password = password
    }
}
