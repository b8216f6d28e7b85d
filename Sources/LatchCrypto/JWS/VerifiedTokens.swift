import AuthCore
import Foundation

/// Access tokens whose signature was checked, by their exact text, with the key that signed them.
///
/// A client presents one access token for every request of its lifetime (15 minutes by default), and the ES256
/// check is most of a bearer request's CPU (about 50 µs of 220). That check is a pure function of the token's
/// bytes and the public key, so its answer can be kept: `ES256AccessTokens` takes an entry only while the
/// entry's key is still in the ring it just read (a revoked or retired key's tokens fail at once, as without
/// the cache), and the session is looked up after it either way, so nothing a sign-out or reset ends is served
/// from here. Bounded: when full, expired entries go, and if that frees nothing, everything does.
struct VerifiedTokens {
    struct Entry {
        let kid: String
        let claims: AccessTokenClaims
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { entries.count }

    func entry(for token: String) -> Entry? {
        entries[token]
    }

    mutating func insert(_ entry: Entry, for token: String, now: Date) {
        if entries.count >= capacity {
            entries = entries.filter { $0.value.claims.expiresAt > now }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        }
        entries[token] = entry
    }
}
