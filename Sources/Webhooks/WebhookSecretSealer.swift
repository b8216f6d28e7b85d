import AuthCore
import Foundation
import LatchCrypto

/// Endpoint secrets at rest: AES-256-GCM under a key derived from the server secret for webhooks alone, bound to
/// the endpoint's id (nonce || ciphertext || tag), so a sealed secret copied into another endpoint's row does not
/// open and the database alone signs nothing.
public struct WebhookSecretSealer: Sendable {
    private let key: Data

    public init(secret: ServerSecret) {
        key = SecretKeyDeriver(secret: secret).key(for: .webhookSecretEncryption)
    }

    public func seal(_ secret: WebhookSecret, endpointID: UUID) throws -> Data {
        let box = try AESGCM.seal(secret.keyBytes, key: key, associatedData: Self.associatedData(endpointID))
        return box.nonce + box.ciphertext
    }

    /// - Throws: when sealed for another endpoint, under another server secret, or altered.
    public func open(_ sealed: Data, endpointID: UUID) throws -> WebhookSecret {
        let box = AESGCM.SealedBox(ciphertext: Data(sealed.dropFirst(AESGCM.nonceByteCount)),
                                   nonce: Data(sealed.prefix(AESGCM.nonceByteCount)))
        let bytes = try AESGCM.open(box, key: key, associatedData: Self.associatedData(endpointID))
        guard let secret = WebhookSecret(parsing: WebhookSecret.prefix + bytes.base64EncodedString()) else {
            throw CryptoError.invalidKey("webhook secret")
        }
        return secret
    }

    private static func associatedData(_ endpointID: UUID) -> Data {
        Data(("webhook-endpoint:" + endpointID.uuidString.lowercased()).utf8)
    }
}
