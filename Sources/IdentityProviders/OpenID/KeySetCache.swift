import AuthCore
import Foundation
import LatchCrypto
import Synchronization

/// Where a provider's JWKS comes from: the provider over HTTP(S) in production, a test's fake otherwise.
protocol KeySetFetching: Sendable {
    /// The key set at `url` and how long it may be kept (`Cache-Control: max-age`, nil when the answer has none);
    /// nil when there is no usable answer (no connection, a status other than 200, not a JWKS).
    func fetchKeySet(from url: URL) -> FetchedKeySet?
}

struct FetchedKeySet: Sendable {
    var keys: ProviderKeySet
    var maxAge: TimeInterval?
}

/// `KeySetFetching` over libcurl: a GET answered 200 with at most 256 KiB of JWKS.
struct HTTPKeySetFetcher: KeySetFetching {
    var http = HTTPFetch()

    func fetchKeySet(from url: URL) -> FetchedKeySet? {
        guard let response = try? http.get(url), response.status == 200,
              let keys = ProviderKeySet(jwks: response.body)
        else { return nil }
        return FetchedKeySet(keys: keys, maxAge: Self.maxAge(cacheControl: response.headers["cache-control"]))
    }

    /// The `max-age` directive's seconds (RFC 9111 §5.2.2.1), if there is one.
    static func maxAge(cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return TimeInterval(seconds)
            }
        }
        return nil
    }
}

/// One provider's JWKS in memory (per JWKS URL), with the rules of `IdentityTokenVerifier.verify`: kept for the
/// answer's `max-age` (an hour without one, within a minute and a day); a `kid` it does not hold refetches the set
/// at most once a minute, so a stream of made-up kids costs the provider one request a minute; an expired set is
/// still used while the provider does not answer, retried at most once a minute. One fetch at a time: threads
/// that waited for a fetch take its result instead of fetching again.
final class KeySetCache: Sendable {
    static let defaultLifetime: TimeInterval = 3600
    static let lifetimes: ClosedRange<TimeInterval> = 60...86_400
    static let minimumRefetchInterval: TimeInterval = 60

    private struct State: Sendable {
        var keys: ProviderKeySet?
        var expiresAt = Date.distantPast
        var lastUnknownKeyRefetch: Date?
        var lastFailure: Date?
        /// Counts finished fetches, so a thread that waited for the lock can tell one happened meanwhile.
        var generation = 0
    }

    private let url: URL
    private let fetcher: any KeySetFetching
    private let clock: any WallClock
    private let state = Mutex(State())
    /// Held for the whole of a fetch.
    private let fetching = Mutex(())

    init(url: URL, fetcher: any KeySetFetching, clock: any WallClock) {
        self.url = url
        self.fetcher = fetcher
        self.clock = clock
    }

    /// The key for a token of `kid` signed with `algorithm`.
    /// - Throws: `.providerUnavailable` when there is no set and none could be fetched; `.unknownKey` when the set
    ///   (refetched if the minute allows) has no such key.
    func key(kid: String, algorithm: String) throws(IdentityTokenRejection) -> SignatureVerificationKey {
        var current = state.withLock { $0 }
        let now = clock.now()
        // An expired set is refetched, but after a failure only once a minute: meanwhile it is served as it is.
        let expired = current.keys == nil || now >= current.expiresAt
        let retryDue = current.keys == nil || !Self.isRecent(current.lastFailure, now)
        if expired && retryDue {
            current = refresh(after: current.generation)
        }
        guard let keys = current.keys else { throw .providerUnavailable }
        if let key = keys.key(kid: kid, algorithm: algorithm) { return key }
        let mayRefetch = state.withLock { state in
            guard !Self.isRecent(state.lastUnknownKeyRefetch, now) else { return false }
            state.lastUnknownKeyRefetch = now
            return true
        }
        guard mayRefetch, let key = refresh(after: current.generation).keys?.key(kid: kid, algorithm: algorithm) else {
            throw .unknownKey
        }
        return key
    }

    /// Fetches the set unless another thread did since `generation` was read; a failure keeps the set there was.
    private func refresh(after generation: Int) -> State {
        fetching.withLock { _ in
            let before = state.withLock { $0 }
            guard before.generation == generation else { return before }
            let fetched = fetcher.fetchKeySet(from: url)
            let now = clock.now()
            return state.withLock { state in
                state.generation += 1
                if let fetched {
                    let lifetime = (fetched.maxAge ?? Self.defaultLifetime).clamped(to: Self.lifetimes)
                    state.keys = fetched.keys
                    state.expiresAt = now.addingTimeInterval(lifetime)
                    state.lastFailure = nil
                } else {
                    state.lastFailure = now
                }
                return state
            }
        }
    }

    private static func isRecent(_ time: Date?, _ now: Date) -> Bool {
        guard let time else { return false }
        return now.timeIntervalSince(time) < minimumRefetchInterval
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
