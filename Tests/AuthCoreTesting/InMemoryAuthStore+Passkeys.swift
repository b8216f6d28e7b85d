import AuthCore
import Foundation

extension InMemoryAuthStore {
    /// Under the lock the first call's candidate is stored and every later call reads it back, as the SQL insert
    /// that does nothing on conflict followed by a read does.
    public func userHandle(userID: UserID, candidate: Data) throws -> Data {
        try locked { state in
            if let handle = state.passkeyUserHandles[userID] { return handle }
            state.passkeyUserHandles[userID] = candidate
            return candidate
        }
    }

    public func userID(forHandle handle: Data) throws -> UserID? {
        try locked { state in state.passkeyUserHandles.first { $0.value == handle }?.key }
    }

    public func storeChallenge(_ challenge: NewPasskeyChallenge) throws {
        try locked { state in
            state.passkeyChallenges[challenge.id] = PasskeyChallengeRow(challenge: challenge, usedAt: nil)
        }
    }

    public func spendChallenge(id: PasskeyChallengeID, purpose: PasskeyChallengePurpose, userID: UserID?, now: Date)
        throws -> Data?
    {
        try locked { state in
            guard let row = state.passkeyChallenges[id], row.usedAt == nil, row.challenge.expiresAt > now,
                  row.challenge.purpose == purpose, row.challenge.userID == userID
            else { return nil }
            state.passkeyChallenges[id]?.usedAt = now
            return row.challenge.digest
        }
    }

    public func passkeys(userID: UserID) throws -> [PasskeyRecord] {
        try locked { state in
            state.passkeys.values.filter { $0.userID == userID }
                .sorted { ($0.createdAt, $0.id.description) < ($1.createdAt, $1.id.description) }
        }
    }

    public func passkey(credentialID: Data) throws -> PasskeyRecord? {
        try locked { state in state.passkeys.values.first { $0.credentialID == credentialID } }
    }

    /// The unique credential id, as the SQL `ON CONFLICT (credential_id) DO NOTHING` keeps it.
    public func addPasskey(_ passkey: PasskeyRecord) throws -> Bool {
        try locked { state in
            guard !state.passkeys.values.contains(where: { $0.credentialID == passkey.credentialID }) else {
                return false
            }
            state.passkeys[passkey.id] = passkey
            return true
        }
    }

    public func recordPasskeyUse(id: PasskeyID, expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date)
        throws -> Bool
    {
        try locked { state in
            guard let passkey = state.passkeys[id], passkey.signCount == expectedSignCount else { return false }
            state.passkeys[id]?.signCount = signCount
            state.passkeys[id]?.backedUp = backedUp
            state.passkeys[id]?.lastUsedAt = at
            return true
        }
    }

    public func renamePasskey(id: PasskeyID, userID: UserID, name: String) throws -> PasskeyRecord? {
        try locked { state in
            guard let passkey = state.passkeys[id], passkey.userID == userID else { return nil }
            state.passkeys[id]?.name = name
            return state.passkeys[id]
        }
    }

    public func removePasskey(id: PasskeyID, userID: UserID) throws -> Bool {
        try locked { state in
            guard let passkey = state.passkeys[id], passkey.userID == userID else { return false }
            state.passkeys[id] = nil
            return true
        }
    }

    /// The user handle stays, as the port says.
    public func removeAllPasskeys(userID: UserID) throws -> Int {
        try locked { state in
            let removed = state.passkeys.filter { $0.value.userID == userID }
            for id in removed.keys { state.passkeys[id] = nil }
            return removed.count
        }
    }
}
