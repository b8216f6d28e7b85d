import AuthCore
import Foundation
import Testing

/// `RateLimitStore`, `SignInFailureStore` and `TrustedDeviceStore`: the counters behind limits and lockouts.
enum LimitContract {
    static let cases: [ContractCase] = [
        ContractCase("RateLimitStore.recordHit: counts per (key, window), the hit included", hits),
        ContractCase("RateLimitStore.clearHits: forgets every window of that key and nothing else", clear),
        ContractCase("SignInFailureStore: counts, restarts after forgetBefore, resets per email key", failures),
        ContractCase("TrustedDeviceStore: finds a device whatever its user or expiry, counts its failures", devices),
    ]

    static func hits(_ f: ContractFixture) throws {
        #expect(try f.store.recordHit(key: "signin:ip:a", windowStart: f.at(0)) == 1)
        #expect(try f.store.recordHit(key: "signin:ip:a", windowStart: f.at(0)) == 2)
        #expect(try f.store.recordHit(key: "signin:ip:a", windowStart: f.at(0)) == 3)
        #expect(try f.store.recordHit(key: "signin:ip:a", windowStart: f.at(60)) == 1, "another window")
        #expect(try f.store.recordHit(key: "signin:ip:b", windowStart: f.at(0)) == 1, "another key")
        #expect(try f.store.recordHit(key: "signin:ip:a", windowStart: f.at(0)) == 4)
    }

    static func clear(_ f: ContractFixture) throws {
        let key = "signin:email:ann"
        // Keys are opaque: one that extends `key` is another key.
        let others = ["signin:email:ann@example.com", "signin:email:annabel", "signup:email:ann"]
        for window in [0.0, 60, 120] { _ = try f.store.recordHit(key: key, windowStart: f.at(window)) }
        for other in others { _ = try f.store.recordHit(key: other, windowStart: f.at(0)) }

        try f.store.clearHits(key: key)
        for window in [0.0, 60, 120] {
            #expect(try f.hitsAfterOneMore(key, window: window) == 1, "window \(window) forgotten")
        }
        for other in others { #expect(try f.hitsAfterOneMore(other) == 2, "\(other) kept") }
        try f.store.clearHits(key: "never:counted")
    }

    static func failures(_ f: ContractFixture) throws {
        let key = "ann@example.com"
        #expect(try f.store.signInFailures(emailKey: key) == nil)
        #expect(try f.store.recordSignInFailure(emailKey: key, at: f.at(10), forgetBefore: f.at(0))
            == SignInFailures(count: 1, lastFailureAt: f.at(10)))
        #expect(try f.store.recordSignInFailure(emailKey: key, at: f.at(20), forgetBefore: f.at(0))
            == SignInFailures(count: 2, lastFailureAt: f.at(20)))
        #expect(try f.store.recordSignInFailure(emailKey: key, at: f.at(30), forgetBefore: f.at(20))
            == SignInFailures(count: 3, lastFailureAt: f.at(30)), "a failure at forgetBefore is not older")
        #expect(try f.store.signInFailures(emailKey: key) == SignInFailures(count: 3, lastFailureAt: f.at(30)))
        #expect(try f.store.recordSignInFailure(emailKey: key, at: f.at(40), forgetBefore: f.at(31))
            == SignInFailures(count: 1, lastFailureAt: f.at(40), sinceSuccess: 4),
                "older than forgetBefore: the lockout's count restarts, the count since the last success does not")
        _ = try f.store.recordSignInFailure(emailKey: "bob@example.com", at: f.at(40), forgetBefore: f.at(0))

        try f.store.resetSignInFailures(emailKey: key)
        #expect(try f.store.signInFailures(emailKey: key) == nil)
        #expect(try f.store.signInFailures(emailKey: "bob@example.com")
            == SignInFailures(count: 1, lastFailureAt: f.at(40)), "another key stays")
        try f.store.resetSignInFailures(emailKey: "nobody@example.com")
    }

    static func devices(_ f: ContractFixture) throws {
        let ann = try f.user("Ann@example.com").user
        let device = try f.signIn(ann, at: 10, deviceTTL: 100).device
        let expected = TrustedDevice(userID: ann.id, emailKey: "ann@example.com", expiresAt: f.at(110), failures: nil)
        #expect(try f.store.findTrustedDevice(tokenHash: device) == expected)
        #expect(try f.store.findTrustedDevice(tokenHash: f.digest()) == nil)

        #expect(try f.store.recordDeviceFailure(tokenHash: device, at: f.at(20), forgetBefore: f.at(0))
            == SignInFailures(count: 1, lastFailureAt: f.at(20)))
        #expect(try f.store.recordDeviceFailure(tokenHash: device, at: f.at(30), forgetBefore: f.at(20))
            == SignInFailures(count: 2, lastFailureAt: f.at(30)), "a failure at forgetBefore is not older")
        var failing = expected
        failing.failures = SignInFailures(count: 2, lastFailureAt: f.at(30))
        #expect(try f.store.findTrustedDevice(tokenHash: device) == failing)
        #expect(try f.store.recordDeviceFailure(tokenHash: device, at: f.at(40), forgetBefore: f.at(31))
            == SignInFailures(count: 1, lastFailureAt: f.at(40)), "older than forgetBefore: restarts")
        #expect(try f.store.recordDeviceFailure(tokenHash: f.digest(), at: f.at(40), forgetBefore: f.at(0)) == nil,
                "an unknown digest")
        failing.failures = SignInFailures(count: 1, lastFailureAt: f.at(40))
        #expect(try f.store.findTrustedDevice(tokenHash: device) == failing)
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") == nil, "a device's failures are its own")
    }
}
