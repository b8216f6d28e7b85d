import AuthCore
import Foundation

/// One delivery attempt to send: where, the signed headers, the body exactly as signed.
public struct WebhookRequest: Sendable, Equatable {
    public var url: URL
    public var headers: WebhookHeaders
    public var body: Data

    public init(url: URL, headers: WebhookHeaders, body: Data) {
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What became of an attempt, as the worker acts on it.
public enum WebhookOutcome: Sendable, Hashable {
    /// A 2xx answer: done.
    case delivered(status: Int)
    /// Any other answer (`status`) or none (`status` nil: DNS, connection, TLS, timeout); try again on the
    /// schedule, or after `retryAfter` seconds when a 429 or 503 asked for it. `error` is curl's text or the
    /// status, never a header or the body sent.
    case failed(status: Int?, retryAfter: TimeInterval?, error: String)
    /// 410 Gone: the receiver asks never to be called again; the endpoint is disabled.
    case gone
    /// Not attempted, or stopped before a byte was sent: the target breaks the policy.
    case refused(WebhookRefusal)
}

/// The outcome with what the worker may record of the answer.
public struct WebhookAttempt: Sendable, Equatable {
    public var outcome: WebhookOutcome
    /// The answer's body, at most the poster's limit (the rest is not read).
    public var responseBody: Data
    /// From the start of the transfer to its end.
    public var duration: Duration

    public init(outcome: WebhookOutcome, responseBody: Data = Data(), duration: Duration = .zero) {
        self.outcome = outcome
        self.responseBody = responseBody
        self.duration = duration
    }
}

/// Sends one delivery attempt; blocks until it ends. A protocol so that the worker is tested without sockets.
public protocol WebhookPosting: Sendable {
    func post(_ request: WebhookRequest) -> WebhookAttempt
}

/// POSTs over libcurl under the target policy: no redirects, a total timeout, at most `maxResponseBytes` of the
/// answer read, and every address checked as it is about to be connected to (so a name that resolves to a
/// public address when registered and to an internal one at delivery is still refused).
public struct CurlWebhookPoster: WebhookPosting {
    public var policy: WebhookTargetPolicy
    /// For the whole transfer, from resolving the name to the last byte read.
    public var timeout: Duration
    public var maxResponseBytes: Int
    /// Reads `Retry-After` dates.
    public var clock: any WallClock

    public init(policy: WebhookTargetPolicy, timeout: Duration = .seconds(15), maxResponseBytes: Int = 64 * 1024,
                clock: any WallClock = SystemClock()) {
        self.policy = policy
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.clock = clock
    }

    public func post(_ request: WebhookRequest) -> WebhookAttempt {
        let plainHTTP: Bool
        do { plainHTTP = try policy.check(request.url) } catch { return WebhookAttempt(outcome: .refused(error)) }
        for field in request.headers.fields where field.value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return WebhookAttempt(outcome: .refused(.header(field.name)))
        }
        let started = ContinuousClock.now
        let result = WebhookTransfer.run(request, policy: policy, plainHTTP: plainHTTP, timeout: timeout,
                                         maxResponseBytes: maxResponseBytes)
        let duration = ContinuousClock.now - started
        switch result {
        case .refused(let refusal):
            return WebhookAttempt(outcome: .refused(refusal), duration: duration)
        case .transport(let text):
            return WebhookAttempt(outcome: .failed(status: nil, retryAfter: nil, error: text), duration: duration)
        case .answered(let status, let retryAfter, let body):
            return WebhookAttempt(outcome: outcome(status: status, retryAfter: retryAfter), responseBody: body,
                                  duration: duration)
        }
    }

    private func outcome(status: Int, retryAfter: String?) -> WebhookOutcome {
        switch status {
        case 200...299:
            return .delivered(status: status)
        case 410:
            return .gone
        case 429, 503:
            let wait = retryAfter.flatMap { WebhookRetrySchedule.retryAfter($0, now: clock.now()) }
            return .failed(status: status, retryAfter: wait, error: "HTTP \(status)")
        case 300...399:
            return .failed(status: status, retryAfter: nil, error: "HTTP \(status) (redirects are not followed)")
        default:
            return .failed(status: status, retryAfter: nil, error: "HTTP \(status)")
        }
    }
}
