import Foundation

/// `POST /v1/signin` → 200 session and `device_token`. The device token of an earlier sign-in on this device is
/// sent along, so that failures caused elsewhere cannot lock the owner out.
struct SignInRequest: APIRequest {
    static let path = "/v1/signin"
    let email: String
    let password: String
    let deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case deviceToken = "device_token"
    }

    /// The session and, beside it in the same object, the device token.
    struct Response: APIResponse {
        let session: Session
        let deviceToken: String?

        private struct DeviceTokenField: Decodable {
            let deviceToken: String?
            enum CodingKeys: String, CodingKey { case deviceToken = "device_token" }
        }

        init(body: Data) throws {
            session = try Session(body: body)
            deviceToken = try APIJSON.decoder.decode(DeviceTokenField.self, from: body).deviceToken
        }
    }
}
