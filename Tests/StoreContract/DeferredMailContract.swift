import AuthCore
import Foundation
import Testing

/// `DeferredMailQueue`: mail asked for by address, waiting for its resolution.
enum DeferredMailContract {
    static let cases: [ContractCase] = [
        ContractCase("DeferredMailQueue: oldest first, each request taken once, as it was queued", order),
        ContractCase("DeferredMailQueue: a take in a transaction that throws leaves the request queued", rollback),
    ]

    static func requests(_ f: ContractFixture) -> [DeferredMail] {
        [
            DeferredMail(kind: .passwordReset, email: "ann@example.com", ip: "203.0.113.7", requestedAt: f.at(10)),
            DeferredMail(kind: .confirmation, email: "Bob@Example.com", ip: nil, requestedAt: f.at(11)),
            DeferredMail(kind: .passwordReset, email: "ann@example.com", ip: "2001:db8::1", requestedAt: f.at(12)),
            DeferredMail(kind: .signIn, email: "cy@example.com", ip: nil, requestedAt: f.at(13),
                         binding: ContractFixture.binding, userAgent: "App/2.0 (iPhone)"),
        ]
    }

    static func order(_ f: ContractFixture) throws {
        #expect(try f.store.takeDeferredMail() == nil)
        let queued = requests(f)
        for request in queued { try f.store.deferMail(request) }
        var taken: [DeferredMail] = []
        while let request = try f.store.takeDeferredMail() { taken.append(request) }
        #expect(taken == queued)
    }

    struct Marker: Error {}

    static func rollback(_ f: ContractFixture) throws {
        let queued = requests(f)
        for request in queued.prefix(2) { try f.store.deferMail(request) }
        #expect(throws: Marker.self) {
            try f.store.transaction { store in
                #expect(try store.takeDeferredMail() == queued[0])
                throw Marker()
            }
        }
        let resolved = try f.store.transaction { store in try store.takeDeferredMail() }
        #expect(resolved == queued[0], "back in the queue, still first")
        #expect(try f.store.takeDeferredMail() == queued[1])
        #expect(try f.store.takeDeferredMail() == nil)
    }
}
