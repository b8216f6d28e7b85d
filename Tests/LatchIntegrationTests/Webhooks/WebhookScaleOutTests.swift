import Foundation
import LatchTestSupport
import Testing
import TestKit

/// ARCHITECTURE.md, "Webhooks" and "Scale-out": several latchd on one database share one delivery queue; the
/// claim (`FOR UPDATE SKIP LOCKED` and a lease) gives each delivery to one worker, so with no crash each receiver
/// gets each event exactly once.
@Suite(.serialized) struct WebhookScaleOutTests {
    static let users = 48

    @Test func twoDaemonsDeliverEachEventOncePerEndpoint() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let receivers = try (0..<2).map { _ in try ScriptedReceiver(threads: 4) { _, _ in .status(200) } }
        let endpoints = try receivers.map { receiver in
            let endpoint = try WebhookEndpointFixture(pool: pool)
            try endpoint.add(url: receiver.url())
            return endpoint
        }
        // Two workers each: four claimers compete for every batch.
        let daemons = try (0..<2).map { _ in try WebhookDaemon(databaseURL: database.url, workers: 2) }
        defer { daemons.forEach { $0.terminate() } }

        // Sign-ups through both daemons at once, so events are made while both deliver.
        let statuses = Locked<[Int]>([])
        let group = DispatchGroup()
        for (index, daemon) in daemons.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                for number in stride(from: index, to: Self.users, by: daemons.count) {
                    let status = (try? daemon.signUp("scale-\(number)@example.test")) ?? -1
                    statuses.update { $0.append(status) }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(statuses.value.count == Self.users && statuses.value.allSatisfy { $0 == 202 }, "\(statuses.value)")

        for endpoint in endpoints {
            #expect(try eventually(within: .seconds(60), every: .milliseconds(50)) {
                try endpoint.deliveredCount() == Self.users
            }, "every delivery ends delivered")
        }
        let events = try pool.query("SELECT id FROM webhook_events").map { try $0.decode(String.self, column: 0) }
        #expect(events.count == Self.users)
        for (receiver, endpoint) in zip(receivers, endpoints) {
            let counts = receiver.countsByID
            #expect(Set(counts.keys) == Set(events), "each event reached \(endpoint.id)")
            #expect(counts.values.allSatisfy { $0 == 1 }, "no event twice: \(counts.filter { $0.value > 1 })")
            #expect(try StandardWebhooks.verify(receiver.requests, secret: endpoint.secret.text).allSatisfy { $0 == nil })
            #expect(try endpoint.records().allSatisfy { $0.deliveredAt != nil && $0.attempts == 1 })
        }

        // The daemons' own counts add up to one attempt per delivery: none was posted twice and counted once.
        let perDaemon = try daemons.map { try $0.delivered() ?? -1 }
        #expect(perDaemon.reduce(0, +) == Self.users * endpoints.count, "\(perDaemon)")
        print("WebhookScaleOutTests: deliveries per daemon \(perDaemon)")
    }
}
