import AuthCore
import Foundation
import LatchStore
import Testing

@Suite("PostgresAuthStore: deferred mail and the writes an answer must not skip")
struct PostgresDeferredMailTests {
    /// Two daemons resolving at once: one holds a request in its open transaction, the other takes the next one
    /// at once instead of waiting for it or taking it too.
    @Test func aHeldRequestIsPassedOverNotWaitedFor() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let first = DeferredMail(kind: .passwordReset, email: "ann@example.com", ip: nil, requestedAt: fixture.at(1))
        let second = DeferredMail(kind: .confirmation, email: "bob@example.com", ip: nil, requestedAt: fixture.at(2))
        try fixture.store.deferMail(first)
        try fixture.store.deferMail(second)

        let (held, other) = try fixture.store.transaction { store in
            (try store.takeDeferredMail(), try fixture.store.takeDeferredMail())
        }
        #expect(held == first)
        #expect(other == second)
        #expect(try fixture.count("SELECT count(*)::int8 FROM deferred_mail") == 0)
    }

    /// A wrong code for an address without an account writes its audit row too (no user), so that the answer
    /// for it ends in the same kind of commit as for an address with one.
    @Test func aWrongCodeIsAuditedForNoAccountTooWithoutAUser() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser()
        for owner in [ann.id, UserID()] {
            try fixture.store.recordWrongCode(
                userID: owner, purpose: .confirm, at: fixture.at(5), limit: 5,
                audit: AuditEvent(name: .wrongCode, at: fixture.at(5), userID: owner, ip: "203.0.113.7",
                                  detail: ["purpose": "confirm"]))
        }
        #expect(try fixture.count(
            "SELECT count(*)::int8 FROM audit_log WHERE event = 'wrong_code' AND user_id = $1", [ann.id.rawValue]) == 1)
        #expect(try fixture.count(
            "SELECT count(*)::int8 FROM audit_log WHERE event = 'wrong_code' AND user_id IS NULL") == 1)
    }
}
