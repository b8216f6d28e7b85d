import AuthCore
import Foundation
@testable import LatchApp
import LatchStore
import TestKit

/// The delivery queue's rules in memory, as `PostgresWebhookStore` keeps them in SQL: a delivery is due when it is
/// neither delivered nor given up, its next attempt has come, no lease holds it and its endpoint is enabled; the
/// marks that end an attempt apply only under the claim's own lease. (The per-user order is left out: the unit
/// tests give each delivery its own user.)
final class InMemoryWebhookQueue: WebhookDeliveryQueue {
    struct Row: Sendable {
        var claim: ClaimedWebhookDelivery
        var nextAttemptAt: Date
        var leasedUntil: Date?
        var deliveredAt: Date?
        var failedAt: Date?
        var lastStatus: Int?
        var lastError: String?
    }

    private struct State {
        var rows: [Row] = []
        var disabled: [UUID: String] = [:]
    }

    private let state = Locked(State())

    /// Queues one event for `endpointID`, due at `at`.
    func add(_ claim: ClaimedWebhookDelivery, dueAt at: Date) {
        state.update { $0.rows.append(Row(claim: claim, nextAttemptAt: at)) }
    }

    var rows: [Row] { state.value.rows }
    func row(_ key: WebhookDeliveryKey) -> Row? { rows.first { $0.claim.key == key } }
    func disabledReason(_ endpointID: UUID) -> String? { state.value.disabled[endpointID] }

    func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [ClaimedWebhookDelivery] {
        state.update { state in
            var claimed: [ClaimedWebhookDelivery] = []
            let order = state.rows.indices.sorted { state.rows[$0].nextAttemptAt < state.rows[$1].nextAttemptAt }
            for index in order where claimed.count < limit {
                let row = state.rows[index]
                guard row.deliveredAt == nil, row.failedAt == nil, row.nextAttemptAt <= now,
                      row.leasedUntil.map({ $0 <= now }) ?? true, state.disabled[row.claim.key.endpointID] == nil
                else { continue }
                state.rows[index].leasedUntil = leaseUntil
                var claim = row.claim
                claim.leaseUntil = leaseUntil
                claimed.append(claim)
            }
            return claimed
        }
    }

    func markDelivered(_ key: WebhookDeliveryKey, status: Int, at now: Date) throws -> Bool {
        update(key, lease: nil) { row in
            guard row.deliveredAt == nil else { return false }
            row.deliveredAt = now
            row.failedAt = nil
            row.lastStatus = status
            row.lastError = nil
            return true
        }
    }

    func markFailedAttempt(_ key: WebhookDeliveryKey, leaseUntil: Date, nextAttemptAt: Date, status: Int?,
                           error: String) throws -> Bool {
        update(key, lease: leaseUntil) { row in
            row.nextAttemptAt = nextAttemptAt
            row.lastStatus = status
            row.lastError = error
            return true
        }
    }

    func markGivenUp(_ key: WebhookDeliveryKey, leaseUntil: Date, status: Int?, error: String, at now: Date)
        throws -> Bool {
        update(key, lease: leaseUntil) { row in
            row.failedAt = now
            row.lastStatus = status
            row.lastError = error
            return true
        }
    }

    func release(_ key: WebhookDeliveryKey, leaseUntil: Date) throws -> Bool {
        state.update { state in
            guard let index = state.rows.firstIndex(where: { $0.claim.key == key }),
                  state.rows[index].deliveredAt == nil, state.rows[index].failedAt == nil,
                  state.rows[index].leasedUntil == leaseUntil else { return false }
            state.rows[index].leasedUntil = nil
            return true
        }
    }

    func disableEndpoint(id: UUID, reason: String, at now: Date) throws -> Bool {
        state.update { state in
            if state.disabled[id] == nil { state.disabled[id] = reason }
            return true
        }
    }

    /// An attempt's record: one more attempt and the lease dropped, if `change` agrees; under `lease` when given
    /// (the failed and given-up marks), on any pending row otherwise (delivered, as the SQL does).
    private func update(_ key: WebhookDeliveryKey, lease: Date?, _ change: (inout Row) -> Bool) -> Bool {
        state.update { state in
            guard let index = state.rows.firstIndex(where: { $0.claim.key == key }) else { return false }
            var row = state.rows[index]
            if let lease {
                guard row.deliveredAt == nil, row.failedAt == nil, row.leasedUntil == lease else { return false }
            }
            guard change(&row) else { return false }
            row.claim.attempts += 1
            row.leasedUntil = nil
            state.rows[index] = row
            return true
        }
    }
}
