import Foundation
import LatchTestSupport
import Webhooks

extension StandardWebhooksVerifier.Case {
    /// A case of headers as `WebhookSigner` made them.
    init(secret: String, headers: WebhookHeaders, body: Data) {
        self.init(secret: secret, headers: Dictionary(uniqueKeysWithValues: headers.fields.map { ($0.name, $0.value) }),
                  body: body)
    }
}
