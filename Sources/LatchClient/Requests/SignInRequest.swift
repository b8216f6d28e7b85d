import Foundation

/// `POST /v1/signin` → 200 session and `device_token`, or for an account with a second factor its ticket
/// (`FirstFactorAnswer`). The device token of an earlier sign-in on this device is sent along, so that failures
/// caused elsewhere cannot lock the owner out.
struct SignInRequest: APIRequest {
    typealias Response = FirstFactorAnswer
    static let path = "/v1/signin"
    let email: String
    let password: String
    let deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case deviceToken = "device_token"
    }
}
