import AuthCore
import Foundation
import LatchCrypto

/// `clientDataJSON` (WebAuthn L3 §5.8.1) and its checks (§7.1 steps 7–10, §7.2 steps 11–14): the ceremony type,
/// the challenge, the origin, and no cross-origin or embedded use.
struct CollectedClientData: Decodable {
    /// Browsers write a few hundred bytes; anything near this is not a browser's.
    static let maxByteCount = 16 * 1024

    var type: String
    var challenge: String
    var origin: String
    var crossOrigin: Bool?
    /// Whether `topOrigin` was there at all: its presence means the ceremony ran in an iframe of another origin.
    var hasTopOrigin: Bool

    private enum CodingKeys: String, CodingKey {
        case type, challenge, origin, crossOrigin, topOrigin
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        challenge = try container.decode(String.self, forKey: .challenge)
        origin = try container.decode(String.self, forKey: .origin)
        crossOrigin = try container.decodeIfPresent(Bool.self, forKey: .crossOrigin)
        hasTopOrigin = container.contains(.topOrigin)
    }

    /// Checks `json` for a ceremony of `type` (`webauthn.create` or `webauthn.get`), in the order the
    /// specification gives.
    /// - Throws: `.malformed` (not JSON, a required member missing or of the wrong type), `.clientDataType`,
    ///   `.challenge` (not canonical unpadded base64url, or not the challenge handed out), `.origin` (not one of
    ///   the expected, `crossOrigin` true, or any `topOrigin`).
    static func verify(_ json: Data, type expectedType: String, expecting expectation: PasskeyExpectation)
        throws(PasskeyRejection)
    {
        guard json.count <= maxByteCount,
              let clientData = try? JSONDecoder().decode(CollectedClientData.self, from: json)
        else { throw PasskeyRejection(.malformed) }
        guard clientData.type == expectedType else { throw PasskeyRejection(.clientDataType) }
        guard let challenge = Base64URL.decode(clientData.challenge),
              ConstantTime.equals(SHA256.hash(challenge), expectation.challengeDigest)
        else { throw PasskeyRejection(.challenge) }
        guard expectation.origins.contains(clientData.origin), clientData.crossOrigin != true,
              !clientData.hasTopOrigin
        else { throw PasskeyRejection(.origin) }
    }
}
