/// `POST /v1/signin/mfa` (no bearer) → 200 session and `device_token`, as `POST /v1/signin`: the ticket a first
/// factor got, with exactly one of the authenticator's code and a recovery code (the other key left out).
struct MFASignInRequest: APIRequest {
    typealias Response = SessionAnswer
    static let path = "/v1/signin/mfa"
    let mfaTicket: String
    /// The authenticator app's current code (TOTP).
    private(set) var code: String?
    private(set) var recoveryCode: String?

    enum CodingKeys: String, CodingKey {
        case code
        case mfaTicket = "mfa_ticket"
        case recoveryCode = "recovery_code"
    }

    init(ticket: String, code: String) {
        mfaTicket = ticket
        self.code = code
    }

    init(ticket: String, recoveryCode: String) {
        mfaTicket = ticket
        self.recoveryCode = recoveryCode
    }
}
