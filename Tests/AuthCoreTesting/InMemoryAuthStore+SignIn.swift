import AuthCore
import Foundation

extension InMemoryAuthStore {
    /// `SessionStore.prepareSignIn` under one lock, as PostgreSQL's one statement.
    public func prepareSignIn(_ attempt: SignInAttempt) throws -> SignInPreparation {
        try locked { state in
            let device = attempt.deviceTokenHash.flatMap { hash -> TrustedDevice? in
                guard let row = state.devices[hash], let owner = state.users[row.userID],
                      Self.key(of: owner) == attempt.emailKey, row.expiresAt > attempt.now
                else { return nil }
                return TrustedDevice(userID: row.userID, emailKey: attempt.emailKey, expiresAt: row.expiresAt,
                                     failures: row.failures)
            }
            let addressHits = attempt.addressHit.map { Self.hit(key: $0.key, windowStart: $0.windowStart, in: &state) }
            var ownHits: Int?
            if (addressHits ?? 0) <= attempt.addressLimit {
                let key = device != nil ? attempt.deviceKey ?? attempt.ownHit.key : attempt.ownHit.key
                ownHits = Self.hit(key: key, windowStart: attempt.ownHit.windowStart, in: &state)
            }
            return SignInPreparation(
                addressHits: addressHits, ownHits: ownHits, device: device, failures: state.failures[attempt.emailKey],
                user: state.users.values.first { Self.key(of: $0) == attempt.emailKey })
        }
    }
}
