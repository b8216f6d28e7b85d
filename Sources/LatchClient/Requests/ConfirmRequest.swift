/// `POST /v1/confirm` → 200 session: the mailed link's token, or the code beside it with the address, confirms
/// the address and signs the user in.
struct ConfirmRequest: APIRequest {
    typealias Response = Session
    static let path = "/v1/confirm"
    let token: String?
    let email: String?
    let code: String?

    init(token: String) {
        self.token = token
        email = nil
        code = nil
    }

    init(email: String, code: String) {
        token = nil
        self.email = email
        self.code = code
    }
}
