import Foundation

/// A sign-in's new session and, beside it in the same object, the device token (`POST /v1/signin`,
/// `/v1/signin/email/verify`, `/v1/signin/mfa`).
struct SessionAnswer: APIResponse {
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
