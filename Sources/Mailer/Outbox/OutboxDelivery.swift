import AuthCore
import Foundation

/// Sends one claimed row and records the outcome in the queue: sent, to be retried, or failed for good.
struct OutboxDelivery: Sendable {
    let queue: any OutboxQueue
    let transport: any MailTransport
    let sender: MailSender
    let messageIDTokens: any MessageIDTokens
    let clock: any WallClock
    let retry: RetryPolicy
    let storeErrorPause: Duration
    let stopSignal: StopSignal
    let metrics: OutboxMetrics
    let log: OutboxWorker.Logger

    /// Tries a store call this many times in all before leaving the row to its lease.
    static let storeTries = 3
    /// `last_error` is a diagnostic, not a transcript: long server replies are cut here.
    static let errorTextLimit = 500

    /// Builds the message (the Message-ID is the token of the row id, so every attempt carries the same one), sends
    /// it, and records the result. Never throws: every failure ends up in the queue or, if the store fails too,
    /// in the log, and the row comes back when its lease ends.
    func deliver(_ item: OutboxItem, leaseUntil: Date) {
        do {
            let message = try MailMessage(
                composed: item.mail, sender: sender, outboxID: item.id, tokens: messageIDTokens, date: clock.now()
            )
            try transport.send(message)
        } catch {
            recordFailure(of: item, error: error, leaseUntil: leaseUntil)
            return
        }
        metrics.recordSent()
        let marked = persist("mark_sent", item: item, leaseUntil: leaseUntil) {
            try queue.markSent(id: item.id, at: clock.now())
        }
        // A row sent but not marked is sent again after its lease, with the same Message-ID.
        log(marked ? "outbox mail sent" : "outbox mail sent but not marked sent", fields(for: item))
    }

    private func recordFailure(of item: OutboxItem, error: any Error, leaseUntil: Date) {
        let attempt = item.attempts + 1
        let permanent = (error as? MailError)?.isPermanent ?? false
        let now = clock.now()
        let retryAt = retry.nextAttempt(afterAttempts: attempt, permanent: permanent, now: now)
        let text = Self.errorText(error)
        metrics.recordFailedAttempt()
        let recorded = persist("record_failure", item: item, leaseUntil: leaseUntil) {
            try queue.recordFailure(id: item.id, error: text, retryAt: retryAt, at: now)
        }
        if recorded, retryAt == nil { metrics.recordGivenUp() }
        var details = fields(for: item)
        details["error"] = text
        details["permanent"] = String(permanent)
        if let retryAt {
            details["retry_at"] = retryAt.formatted(.iso8601)
            log("outbox send failed, will retry", details)
        } else {
            log("outbox send failed, giving up", details)
        }
    }

    /// Runs a store call, trying again after a pause while the database is down, at most `storeTries` times,
    /// not past the lease (another worker may own the row then) and not once stop was requested.
    private func persist(
        _ operation: String, item: OutboxItem, leaseUntil: Date, _ call: () throws -> Void
    ) -> Bool {
        for tried in 1...Self.storeTries {
            do {
                try call()
                return true
            } catch {
                metrics.recordStoreError()
                var details = fields(for: item)
                details["operation"] = operation
                details["error"] = Self.errorText(error)
                log("outbox store error", details)
            }
            let mayRetry = tried < Self.storeTries && clock.now() < leaseUntil
            guard mayRetry, stopSignal.pause(storeErrorPause) else { break }
        }
        return false
    }

    private func fields(for item: OutboxItem) -> [String: String] {
        ["outbox_id": String(item.id), "kind": item.mail.kind.rawValue, "attempt": String(item.attempts + 1)]
    }

    /// One line of printable text: PostgreSQL's text type refuses NUL, and a log field should not break lines.
    /// Transport errors never hold bodies or links (see `MailError`); other errors are named by their type too.
    static func errorText(_ error: any Error) -> String {
        let raw = (error as? MailError).map { "\($0.code): \($0)" } ?? "\(type(of: error)): \(error)"
        let scalars = raw.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
        return String(String(String.UnicodeScalarView(scalars)).prefix(errorTextLimit))
    }
}
