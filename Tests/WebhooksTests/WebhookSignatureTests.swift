import Foundation
import LatchTestSupport
import LatchCrypto
import Testing
import Webhooks

@Suite struct WebhookSignatureTests {
    let now = Int64(Date().timeIntervalSince1970)

    @Test func madeSecretsAre32RandomBytesThatParseBack() throws {
        let first = try WebhookSecret.make()
        let second = try WebhookSecret.make()
        #expect(first.keyBytes.count == 32)
        #expect(first != second)
        #expect(first.text.hasPrefix("whsec_"))
        #expect(WebhookSecret(parsing: first.text) == first)
        #expect(!"\(first)".contains(first.text.dropFirst(6)))
    }

    @Test(arguments: [
        "", "whsec_", "whsec", "secret_" + Data(count: 32).base64EncodedString(),
        "whsec_" + Data(count: 16).base64EncodedString(),  // too short
        "whsec_" + Data(count: 65).base64EncodedString(),  // too long
        "whsec_" + Data(count: 32).base64EncodedString().dropLast(),  // padding cut
        "whsec_" + Data(count: 32).base64EncodedString() + " ",
        "whsec_!!!!" + Data(count: 30).base64EncodedString(),
    ])
    func malformedSecretsAreRefused(_ text: String) {
        #expect(WebhookSecret(parsing: text) == nil)
    }

    @Test func aKnownVectorSigns() throws {
        // The spec's example secret, id, time and body, computed independently with Python's hmac module.
        let secret = try #require(WebhookSecret(parsing: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let headers = WebhookSigner.headers(eventID: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330,
                                            body: Data(#"{"test": 2432232314}"#.utf8), secrets: [secret])
        #expect(headers.signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(headers.fields.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"])
        #expect(headers.fields.last?.value == "application/json")
    }

    @Test func standardWebhooksVerifiesOneSecretAndBothDuringARotation() throws {
        let old = try WebhookSecret.make()
        let new = try WebhookSecret.make()
        let stranger = try WebhookSecret.make()
        let body = Data(#"{"type":"user.created","data":{"id":"ü"}}"#.utf8) + Data([0xff, 0x00])
        let single = WebhookSigner.headers(eventID: "evt_1", timestamp: now, body: body, secrets: [new])
        let rotation = WebhookSigner.headers(eventID: "evt_2", timestamp: now, body: body, secrets: [new, old])
        #expect(rotation.signature.split(separator: " ").count == 2)
        var tampered = body
        tampered[0] = UInt8(ascii: "[")
        let verdicts = try StandardWebhooksVerifier.verify([
            .init(secret: new.text, headers: single, body: body),
            .init(secret: new.text, headers: rotation, body: body),
            .init(secret: old.text, headers: rotation, body: body),
            .init(secret: stranger.text, headers: rotation, body: body),
            .init(secret: old.text, headers: single, body: body),
            .init(secret: new.text, headers: single, body: tampered),
        ])
        #expect(verdicts[0] == nil)
        #expect(verdicts[1] == nil)
        #expect(verdicts[2] == nil)
        #expect(verdicts[3] != nil)
        #expect(verdicts[4] != nil)
        #expect(verdicts[5] != nil)
    }
}
