import Foundation
import LatchTestSupport

/// `standardwebhooks` verifying what the receiver got, as a real receiver would: the request as it arrived, so the
/// check covers what latchd put on the wire.
enum StandardWebhooks {
    /// One verdict per request: nil when the library accepts it under `secret`, else its error.
    static func verify(_ requests: [ScriptedReceiver.Received], secret: String) throws -> [String?] {
        let names = ["webhook-id", "webhook-timestamp", "webhook-signature"]
        return try StandardWebhooksVerifier.verify(requests.map { request in
            StandardWebhooksVerifier.Case(
                secret: secret, headers: Dictionary(uniqueKeysWithValues: names.map { ($0, request.headers[$0] ?? "") }),
                body: Data(request.body))
        })
    }
}
