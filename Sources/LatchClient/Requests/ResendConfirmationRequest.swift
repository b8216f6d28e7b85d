/// `POST /v1/confirm/resend` → 202: another confirmation mail, if the address waits for one.
struct ResendConfirmationRequest: APIRequest {
    typealias Response = NoContent
    static let path = "/v1/confirm/resend"
    let email: String
}
