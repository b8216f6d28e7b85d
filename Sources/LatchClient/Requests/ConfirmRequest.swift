/// `POST /v1/confirm` → 200 session: the mailed token confirms the address and signs the user in.
struct ConfirmRequest: APIRequest {
    typealias Response = Session
    static let path = "/v1/confirm"
    let token: String
}
