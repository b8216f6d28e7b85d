import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// SigningKeys.swift: the first key, rotation and revocation, each audited in its change.
@Suite struct SigningKeysTests {
    struct Fixture {
        let store = InMemorySigningKeyStore()
        let clock = ManualClock()
        let keys: SigningKeys

        init(countingDown: Bool = false) {
            keys = SigningKeys(store: store, factory: SequentialSigningKeyFactory(countingDown: countingDown), clock: clock,
                               schedule: SigningKeySchedule(jwksMaxAge: 600, accessTokenTTL: 900))
        }

        func state(_ kid: String) throws -> SigningKeyState? {
            try keys.list().first { $0.key.kid == kid }?.state
        }
    }

    @Test func theFirstReadMakesOneKeyCurrentAtOnceAndLaterReadsWriteNothing() throws {
        let fixture = Fixture()
        let ring = try fixture.keys.ring(actor: "latchd")
        #expect(ring.current.kid == "key-1" && ring.published.map(\.kid) == ["key-1"])
        #expect(ring.current.activatesAt <= fixture.clock.now())
        #expect(fixture.store.audit.map(\.name) == [.signingKeyCreated])
        #expect(fixture.store.audit.first?.detail["reason"] == "first_key")
        #expect(fixture.store.audit.first?.detail["actor"] == "latchd")
        #expect(fixture.store.audit.first?.userID == nil)
        _ = try fixture.keys.ring(actor: "latchd")
        #expect(fixture.store.keys.count == 1 && fixture.store.audit.count == 1)
    }

    @Test func rotationPublishesAKeyThatSignsOnlyAfterTheDelayAndOneRotationWaitsAtATime() throws {
        let fixture = Fixture()
        _ = try fixture.keys.ring(actor: "latchd")
        fixture.clock.advance(by: 30)
        let next = try fixture.keys.rotate(actor: "opal")
        #expect(next.activatesAt == SigningKeys.stored(fixture.clock.now()) + fixture.keys.schedule.activationDelay)
        #expect(try fixture.state("key-2") == .next)
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == "key-1")
        #expect(try fixture.keys.ring(actor: "latchd").published.map(\.kid) == ["key-2", "key-1"])
        let event = try #require(fixture.store.audit.last)
        #expect(event.name == .signingKeyCreated && event.detail["reason"] == "rotation")
        #expect(event.detail["actor"] == "opal" && event.detail["kid"] == "key-2")

        #expect(throws: SigningKeys.Failure.rotationPending(kid: "key-2", activatesAt: next.activatesAt)) {
            try fixture.keys.rotate(actor: "opal")
        }
        #expect(fixture.store.keys.count == 2, "the refused rotation wrote nothing")
        fixture.clock.advance(by: fixture.keys.schedule.activationDelay)
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == "key-2")
        #expect(try fixture.state("key-1") == .previous)
        _ = try fixture.keys.rotate(actor: "opal")
    }

    /// All in one second, as latchctl does it in a test: every stored time ties, so the order of `list` must
    /// come from the states, never from the kids (counting down, the revoked key's kid sorts first).
    @Test(arguments: [false, true])
    func revokingTheCurrentKeyMakesTheWaitingKeyCurrentNow(countingDown: Bool) throws {
        let fixture = Fixture(countingDown: countingDown)
        let (first, second) = countingDown ? ("key-99", "key-98") : ("key-1", "key-2")
        _ = try fixture.keys.ring(actor: "latchd")
        _ = try fixture.keys.rotate(actor: "opal")
        let (revoked, replacement) = try fixture.keys.revoke(kid: first, actor: "opal")
        #expect(revoked.kid == first && revoked.revokedAt != nil)
        #expect(replacement?.kid == second)
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == second)
        #expect(try fixture.keys.list().map(\.state) == [.current, .revoked])
        #expect(fixture.store.audit.suffix(2).map(\.name) == [.signingKeyRevoked, .signingKeyActivated])
        #expect(fixture.store.audit.suffix(2).allSatisfy { $0.detail["actor"] == "opal" })
        #expect(fixture.store.audit.suffix(2).first?.detail["state"] == "current")
    }

    @Test func revokingTheCurrentKeyWithNoneWaitingMakesANewKey() throws {
        let fixture = Fixture()
        _ = try fixture.keys.ring(actor: "latchd")
        let (_, replacement) = try fixture.keys.revoke(kid: "key-1", actor: "opal")
        #expect(replacement?.kid == "key-2")
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == "key-2")
        #expect(fixture.store.audit.last?.detail["reason"] == "revoked_current")
    }

    @Test func revokingAWaitingOrPreviousKeyLeavesTheCurrentOne() throws {
        let fixture = Fixture()
        _ = try fixture.keys.ring(actor: "latchd")
        _ = try fixture.keys.rotate(actor: "opal")
        let (_, none) = try fixture.keys.revoke(kid: "key-2", actor: "opal")
        #expect(none == nil)
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == "key-1")
        fixture.clock.advance(by: 10_000)
        #expect(try fixture.keys.ring(actor: "latchd").current.kid == "key-1", "a revoked waiting key never signs")

        _ = try fixture.keys.rotate(actor: "opal")
        fixture.clock.advance(by: fixture.keys.schedule.activationDelay)
        #expect(try fixture.state("key-1") == .previous)
        let (_, stillNone) = try fixture.keys.revoke(kid: "key-1", actor: "opal")
        #expect(stillNone == nil)
        #expect(try fixture.keys.ring(actor: "latchd").published.map(\.kid) == ["key-3"])
    }

    @Test func unknownAndRevokedKeysAreRefusedWithoutAWrite() throws {
        let fixture = Fixture()
        _ = try fixture.keys.ring(actor: "latchd")
        #expect(throws: SigningKeys.Failure.unknownKey(kid: "nope")) { try fixture.keys.revoke(kid: "nope", actor: "o") }
        _ = try fixture.keys.revoke(kid: "key-1", actor: "o")
        let audit = fixture.store.audit.count
        #expect(throws: SigningKeys.Failure.alreadyRevoked(kid: "key-1")) { try fixture.keys.revoke(kid: "key-1", actor: "o") }
        #expect(fixture.store.audit.count == audit)
    }

    /// Made in the same second, the waiting key still lists first: the order is by takeover, not by kid.
    @Test func theListIsLatestFirstWithEachState() throws {
        let fixture = Fixture(countingDown: true)
        _ = try fixture.keys.ring(actor: "latchd")
        _ = try fixture.keys.rotate(actor: "opal")
        #expect(try fixture.keys.list().map { "\($0.key.kid):\($0.state)" } == ["key-98:next", "key-99:current"])
    }
}
