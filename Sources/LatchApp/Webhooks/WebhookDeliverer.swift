import AuthCore
import Foundation
import LatchStore
import Webhooks

/// One attempt of one claimed delivery: open the endpoint's secrets, sign, POST the stored payload unchanged,
/// and record the outcome under the claim's lease. Shared by the worker's threads.
struct WebhookDeliverer: Sendable {
    let store: any WebhookDeliveryQueue
    let poster: any WebhookPosting
    let sealer: WebhookSecretSealer
    let clock: any WallClock
    let schedule: WebhookRetrySchedule
    let metrics: WebhookMetrics
    let log: WebhookWorker.Logger

    /// Store errors are thrown: the caller logs them and pauses. Whatever was not recorded comes back when the
    /// lease ends, so at worst this attempt is repeated, under the same webhook-id.
    func deliver(_ claim: ClaimedWebhookDelivery) throws {
        let now = clock.now()
        let attempt = claim.attempts + 1
        guard let url = URL(string: claim.url) else {
            try giveUp(claim, status: nil, error: WebhookRefusal.malformedURL("not a URL").description, outcome: .refused)
            return
        }
        let request: WebhookRequest
        do {
            request = try self.request(for: claim, url: url, at: now)
        } catch {
            // A secret that does not open (another server secret, an altered row) never will: retrying cannot help.
            try giveUp(claim, status: nil, error: "secret does not open: \(error)", outcome: .givenUp)
            return
        }
        let result = poster.post(request).outcome
        let fields = ["delivery": claim.key.description, "type": claim.eventType, "attempt": String(attempt)]
        switch result {
        case .delivered(let status):
            metrics.record(.delivered)
            try store.markDelivered(claim.key, status: status, at: clock.now())
        case .gone:
            // The receiver asked never to be called again: every delivery to it waits (disabled), this one ends.
            try store.disableEndpoint(id: claim.key.endpointID, reason: "410 Gone", at: clock.now())
            try giveUp(claim, status: 410, error: "410 Gone", outcome: .gone)
            log("webhook endpoint disabled", fields.merging(["reason": "410 Gone"]) { $1 })
        case .refused(let refusal):
            // The target breaks the policy; the same URL will break it next time too.
            try giveUp(claim, status: nil, error: refusal.description, outcome: .refused)
            log("webhook refused", fields.merging(["error": refusal.description]) { $1 })
        case .failed(let status, let retryAfter, let error):
            if let delay = schedule.delay(afterAttempt: attempt, retryAfter: retryAfter) {
                metrics.record(.failed)
                try store.markFailedAttempt(claim.key, leaseUntil: claim.leaseUntil,
                                            nextAttemptAt: clock.now().addingTimeInterval(delay), status: status,
                                            error: error)
            } else {
                try giveUp(claim, status: status, error: error, outcome: .givenUp)
                log("webhook given up", fields.merging(["error": error]) { $1 })
            }
        }
    }

    /// The signed POST: webhook-id is the event's id on every attempt, the timestamp this attempt's, and both
    /// secrets sign while a rotation lasts.
    private func request(for claim: ClaimedWebhookDelivery, url: URL, at now: Date) throws -> WebhookRequest {
        var secrets = [try sealer.open(claim.secretSealed, endpointID: claim.key.endpointID)]
        if let previous = claim.previousSecretSealed, let until = claim.previousSecretUntil, now < until {
            secrets.append(try sealer.open(previous, endpointID: claim.key.endpointID))
        }
        let body = Data(claim.payload.utf8)
        let headers = WebhookSigner.headers(eventID: claim.key.eventID, timestamp: Int64(now.timeIntervalSince1970),
                                            body: body, secrets: secrets)
        return WebhookRequest(url: url, headers: headers, body: body)
    }

    private func giveUp(_ claim: ClaimedWebhookDelivery, status: Int?, error: String,
                        outcome: WebhookMetrics.Outcome) throws {
        metrics.record(outcome)
        try store.markGivenUp(claim.key, leaseUntil: claim.leaseUntil, status: status, error: error, at: clock.now())
    }
}
