import Foundation
import LatchTestSupport
import HTTPServer
import TestKit
import Testing
import Webhooks

@Suite struct WebhookPosterTests {
    let receiver: Receiver
    let secret: WebhookSecret
    let poster: CurlWebhookPoster
    let body = Data(#"{"type":"user.created","data":{"id":"42","name":"Zoë"}}"#.utf8)

    init() throws {
        receiver = try Receiver()
        secret = try WebhookSecret.make()
        poster = CurlWebhookPoster(policy: .loopbackDevelopment(), timeout: .seconds(1))
    }

    private func request(_ path: String, host: String = "127.0.0.1") -> WebhookRequest {
        let headers = WebhookSigner.headers(eventID: "evt_\(path.dropFirst())", timestamp: Int64(Date().timeIntervalSince1970),
                                            body: body, secrets: [secret])
        return WebhookRequest(url: receiver.url(path, host: host), headers: headers, body: body)
    }

    @Test func aTwoHundredIsDeliveredWithTheSignedHeadersAndTheBodyByteForByte() throws {
        let sent = request("/ok")
        let attempt = poster.post(sent)
        #expect(attempt.outcome == .delivered(status: 200))
        #expect(attempt.responseBody == Data("thanks".utf8))
        let got = try #require(receiver.received.value.first)
        #expect(got.body == Array(body))
        #expect(got.headers["webhook-id"] == sent.headers.id)
        #expect(got.headers["webhook-timestamp"] == String(sent.headers.timestamp))
        #expect(got.headers["webhook-signature"] == sent.headers.signature)
        #expect(got.headers["content-type"] == "application/json")
        #expect(got.headers["expect"] == nil)
        let verdicts = try StandardWebhooksVerifier.verify([
            .init(secret: secret.text, headers: WebhookHeaders(
                id: got.headers["webhook-id"]!, timestamp: Int64(got.headers["webhook-timestamp"]!)!,
                signature: got.headers["webhook-signature"]!), body: Data(got.body)),
        ])
        #expect(verdicts == [nil])
    }

    @Test func aFiveHundredFails() {
        let attempt = poster.post(request("/fail"))
        #expect(attempt.outcome == .failed(status: 500, retryAfter: nil, error: "HTTP 500"))
        #expect(attempt.responseBody == Data("broken".utf8))
    }

    @Test func aFiveOhThreeCarriesItsRetryAfter() {
        #expect(poster.post(request("/busy")).outcome == .failed(status: 503, retryAfter: 120, error: "HTTP 503"))
    }

    @Test func aFourTenIsGone() {
        #expect(poster.post(request("/gone")).outcome == .gone)
    }

    @Test func aRedirectFailsAndIsNotFollowed() throws {
        let attempt = poster.post(request("/moved"))
        guard case .failed(status: 302, retryAfter: nil, _) = attempt.outcome else {
            Issue.record("\(attempt.outcome)")
            return
        }
        #expect(receiver.received.value.map(\.path) == ["/moved"])
    }

    @Test func aLargeAnswerIsReadOnlyUpToTheCap() {
        let attempt = poster.post(request("/large"))
        #expect(attempt.outcome == .delivered(status: 200))
        #expect(attempt.responseBody.count == 64 * 1024)
        #expect(attempt.responseBody == Data(Receiver.largeBody.prefix(64 * 1024)))
    }

    @Test func aSlowReceiverTimesOut() {
        let attempt = poster.post(request("/slow"))
        guard case .failed(status: nil, retryAfter: nil, let error) = attempt.outcome else {
            Issue.record("\(attempt.outcome)")
            return
        }
        #expect(error.lowercased().contains("time"), "\(error)")
        #expect(attempt.duration >= .milliseconds(900) && attempt.duration < .milliseconds(2500))
    }

    @Test func aNameThatResolvesToLoopbackIsRefusedAtConnectTimeWhenLoopbackIsNotAllowed() {
        // http to a loopback name passes the URL's check; the address connected to is what is refused.
        let strictAddresses = CurlWebhookPoster(policy: WebhookTargetPolicy(allowsLoopbackHTTP: true),
                                                timeout: .seconds(1))
        let attempt = strictAddresses.post(request("/ok", host: "localhost"))
        guard case .refused(.address(let address, _)) = attempt.outcome else {
            Issue.record("\(attempt.outcome)")
            return
        }
        #expect(["127.0.0.1", "::1"].contains(address.description))
        #expect(receiver.received.value.isEmpty)
    }

    @Test func plainHTTPIsRefusedBeforeAnyConnectionWhenNotAllowed() {
        let strict = CurlWebhookPoster(policy: WebhookTargetPolicy(), timeout: .seconds(1))
        guard case .refused(.scheme) = strict.post(request("/ok")).outcome else {
            Issue.record("not refused")
            return
        }
        #expect(receiver.received.value.isEmpty)
    }

    @Test func aClosedPortIsATransportFailure() throws {
        let port = try freePort()
        var sent = request("/ok")
        sent.url = URL(string: "http://127.0.0.1:\(port)/ok")!
        guard case .failed(status: nil, retryAfter: nil, let error) = poster.post(sent).outcome else {
            Issue.record("not a transport failure")
            return
        }
        #expect(!error.isEmpty)
    }

    @Test func aHeaderWithALineBreakIsRefused() {
        var sent = request("/ok")
        sent.headers.id = "evt\r\nX-Injected: 1"
        #expect(poster.post(sent).outcome == .refused(.header("webhook-id")))
        #expect(receiver.received.value.isEmpty)
    }
}
