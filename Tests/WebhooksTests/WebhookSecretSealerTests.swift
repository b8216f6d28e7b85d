import AuthCore
import Foundation
import Testing
import Webhooks

/// Endpoint secrets at rest open only for their endpoint and under their server secret.
@Suite struct WebhookSecretSealerTests {
    static let secret = try! ServerSecret(base64: Data(repeating: 7, count: 32).base64EncodedString())

    @Test func aSealedSecretOpensOnlyForItsEndpoint() throws {
        let sealer = WebhookSecretSealer(secret: Self.secret)
        let secret = try WebhookSecret.make()
        let endpoint = UUID()
        let sealed = try sealer.seal(secret, endpointID: endpoint)
        #expect(!sealed.contains(secret.keyBytes))
        #expect(try sealer.open(sealed, endpointID: endpoint) == secret)
        #expect(throws: (any Error).self) { try sealer.open(sealed, endpointID: UUID()) }
        let other = WebhookSecretSealer(secret: try ServerSecret(base64: Data(repeating: 8, count: 32).base64EncodedString()))
        #expect(throws: (any Error).self) { try other.open(sealed, endpointID: endpoint) }
    }
}
