import AuthCore
import Foundation
import Testing

/// Policy/SigningKeySchedule.swift: every state a key passes through, from its stored times alone.
@Suite struct SigningKeyScheduleTests {
    let schedule = SigningKeySchedule(jwksMaxAge: 600, accessTokenTTL: 900)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func key(_ kid: String, created: TimeInterval, activates: TimeInterval, revoked: TimeInterval? = nil) -> SigningKey {
        SigningKey(kid: kid, publicKey: Data([4]), sealedPrivateKey: SealedPrivateKey(ciphertext: Data(), nonce: Data()),
                   createdAt: start + created, activatesAt: start + activates, revokedAt: revoked.map { start + $0 })
    }

    func states(_ keys: [SigningKey], at offset: TimeInterval) -> [String: SigningKeyState] {
        schedule.states(of: keys, at: start + offset)
    }

    @Test func theMarginsCoverTheCacheTheClockSkewAndTheTokensLife() {
        #expect(schedule.activationDelay == 600 + 5 + 60)
        #expect(schedule.retention == 900 + 5 + 60)
    }

    @Test func aRotatedKeyWaitsThenSignsAndItsPredecessorVerifiesUntilItsTokensExpiredThenRetires() {
        let takeover = 100 + schedule.activationDelay
        let keys = [key("k1", created: 0, activates: 0), key("k2", created: 100, activates: takeover)]
        #expect(states(keys, at: 0) == ["k1": .current, "k2": .next])
        #expect(states(keys, at: takeover - 1) == ["k1": .current, "k2": .next])
        #expect(states(keys, at: takeover) == ["k1": .previous, "k2": .current])
        #expect(states(keys, at: takeover + schedule.retention - 1) == ["k1": .previous, "k2": .current])
        #expect(states(keys, at: takeover + schedule.retention) == ["k1": .retired, "k2": .current])
        #expect(schedule.current(of: keys, at: start + takeover)?.kid == "k2")
        #expect(schedule.next(of: keys, at: start)?.kid == "k2")
        #expect(SigningKeyState.allCases.filter(\.isPublished) == [.next, .current, .previous])
    }

    @Test func revocationIsImmediateAndAKeyRevokedBeforeItsTimeNeverTakesOver() {
        let keys = [key("k1", created: 0, activates: 0), key("k2", created: 100, activates: 800, revoked: 200)]
        #expect(states(keys, at: 300) == ["k1": .current, "k2": .revoked])
        #expect(states(keys, at: 5000) == ["k1": .current, "k2": .revoked], "k1 was never replaced")
        let current = [key("k1", created: 0, activates: 0, revoked: 50)]
        #expect(states(current, at: 50) == ["k1": .revoked])
        #expect(schedule.current(of: current, at: start + 50) == nil)
    }

    @Test func aRetiredKeyNeverComesBackWhenItsSuccessorIsRevoked() {
        let keys = [key("k1", created: 0, activates: 0), key("k2", created: 10, activates: 700, revoked: 3000)]
        #expect(states(keys, at: 3000) == ["k1": .retired, "k2": .revoked])
        #expect(schedule.current(of: keys, at: start + 3000) == nil, "nothing signs: a new key must be made")
        // While k1's tokens may still be live, revoking k2 leaves k1 verifying, never signing.
        let early = [key("k1", created: 0, activates: 0), key("k2", created: 10, activates: 700, revoked: 800)]
        #expect(states(early, at: 800) == ["k1": .previous, "k2": .revoked])
        #expect(schedule.current(of: early, at: start + 800) == nil)
    }

    @Test func equalActivationTimesStillGiveOneCurrentKey() {
        let keys = [key("k1", created: 0, activates: 10), key("k2", created: 0, activates: 10)]
        let now = states(keys, at: 10)
        #expect(now.values.filter { $0 == .current }.count == 1)
        #expect(now == ["k1": .previous, "k2": .current])
    }
}
