import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The columns `passkey(_:)` decodes, of `passkeys`.
    private static let passkeyColumns = """
        id, user_id, credential_id, public_key, algorithm, sign_count, backup_eligible, backed_up, transports, aaguid,
        name, created_at, last_used_at
        """

    /// Two statements, as the port says: the insert commits (or finds the user's row, waiting for a racing insert
    /// to commit), and the read that follows, under READ COMMITTED a new snapshot, sees whichever row won. The
    /// conflict target is the user alone, so a candidate equal to another user's handle is an error, never
    /// silently someone else's handle.
    public func userHandle(userID: UserID, candidate: Data) throws -> Data {
        try database.query("""
            INSERT INTO passkey_user_handles (user_id, handle) VALUES (\(userID.rawValue), \(candidate))
            ON CONFLICT (user_id) DO NOTHING
            """)
        guard let handle = try database.query("""
            SELECT handle FROM passkey_user_handles WHERE user_id = \(userID.rawValue)
            """, retry: .onConnectionLoss).scalar(Data.self)
        else { throw PostgresError.decoding(column: "handle", reason: "no user handle after storing one") }
        return handle
    }

    public func userID(forHandle handle: Data) throws -> UserID? {
        try database.query("""
            SELECT user_id FROM passkey_user_handles WHERE handle = \(handle)
            """, retry: .onConnectionLoss).scalar(UUID.self).map(UserID.init)
    }

    public func storeChallenge(_ challenge: NewPasskeyChallenge) throws {
        try database.query("""
            INSERT INTO passkey_challenges (id, purpose, user_id, digest, created_at, expires_at)
            VALUES (\(challenge.id.rawValue), \(challenge.purpose.rawValue)::text, \(challenge.userID?.rawValue)::uuid,
                    \(challenge.digest), \(challenge.createdAt), \(challenge.expiresAt))
            """)
    }

    /// The UPDATE locks the row: of two racing spends, the second re-checks `used_at` after the first commits and
    /// matches nothing. `IS NOT DISTINCT FROM` makes a nil user match only a challenge bound to no user.
    public func spendChallenge(id: PasskeyChallengeID, purpose: PasskeyChallengePurpose, userID: UserID?, now: Date)
        throws -> Data?
    {
        try database.query("""
            UPDATE passkey_challenges SET used_at = \(now)
            WHERE id = \(id.rawValue) AND purpose = \(purpose.rawValue)::text
              AND user_id IS NOT DISTINCT FROM \(userID?.rawValue)::uuid
              AND used_at IS NULL AND expires_at > \(now)
            RETURNING digest
            """).scalar(Data.self)
    }

    public func passkeys(userID: UserID) throws -> [PasskeyRecord] {
        try database.query("""
            SELECT \(unescaped: Self.passkeyColumns) FROM passkeys
            WHERE user_id = \(userID.rawValue)
            ORDER BY created_at, id
            """, retry: .onConnectionLoss).map(Self.passkey)
    }

    public func passkey(credentialID: Data) throws -> PasskeyRecord? {
        try database.query("""
            SELECT \(unescaped: Self.passkeyColumns) FROM passkeys WHERE credential_id = \(credentialID)
            """, retry: .onConnectionLoss).first.map(Self.passkey)
    }

    /// `ON CONFLICT (credential_id) DO NOTHING` rather than catching the unique violation: an error would abort an
    /// enclosing transaction (the flow stores the passkey and its audit row together), a skipped row does not.
    public func addPasskey(_ passkey: PasskeyRecord) throws -> Bool {
        try database.query("""
            INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, backup_eligible,
                                  backed_up, transports, aaguid, name, created_at, last_used_at)
            VALUES (\(passkey.id.rawValue), \(passkey.userID.rawValue), \(passkey.credentialID), \(passkey.publicKey),
                    \(passkey.algorithm.rawValue), \(Int64(passkey.signCount)), \(passkey.backupEligible),
                    \(passkey.backedUp), \(Self.transportsText(passkey.transports))::text, \(passkey.aaguid),
                    \(passkey.name)::text, \(passkey.createdAt), \(passkey.lastUsedAt)::timestamptz)
            ON CONFLICT (credential_id) DO NOTHING
            RETURNING id
            """).count == 1
    }

    /// A compare-and-set on `sign_count`: the UPDATE locks the row, so of two racing uses judged against one count
    /// the second re-checks the count after the first commits and matches nothing once the first moved it. (An
    /// authenticator whose counter stays 0 moves nothing, and both uses count: it offers no clone signal anyway.)
    public func recordPasskeyUse(id: PasskeyID, expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date)
        throws -> Bool
    {
        try database.query("""
            UPDATE passkeys SET sign_count = \(Int64(signCount)), backed_up = \(backedUp), last_used_at = \(at)
            WHERE id = \(id.rawValue) AND sign_count = \(Int64(expectedSignCount))
            """).affectedRows == 1
    }

    public func renamePasskey(id: PasskeyID, userID: UserID, name: String) throws -> PasskeyRecord? {
        try database.query("""
            UPDATE passkeys SET name = \(name)::text
            WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
            RETURNING \(unescaped: Self.passkeyColumns)
            """).first.map(Self.passkey)
    }

    public func removePasskey(id: PasskeyID, userID: UserID) throws -> Bool {
        try database.query("""
            DELETE FROM passkeys WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
            """).affectedRows == 1
    }

    public func removeAllPasskeys(userID: UserID) throws -> Int {
        try database.query("DELETE FROM passkeys WHERE user_id = \(userID.rawValue)").affectedRows
    }

    /// `transports` as `passkeys.transports` stores them: single spaces between values.
    static func transportsText(_ transports: [String]) -> String {
        transports.joined(separator: " ")
    }

    private static func passkey(_ row: PostgresRow) throws -> PasskeyRecord {
        let rawAlgorithm = try row.decode(Int.self, column: 4)
        guard let algorithm = PasskeyAlgorithm(rawValue: rawAlgorithm) else {
            throw PostgresError.decoding(column: "algorithm", reason: "unknown COSE algorithm")
        }
        guard let signCount = UInt32(exactly: try row.decode(Int64.self, column: 5)) else {
            throw PostgresError.decoding(column: "sign_count", reason: "out of the 32-bit counter's range")
        }
        return PasskeyRecord(
            id: PasskeyID(try row.decode(UUID.self, column: 0)), userID: UserID(try row.decode(UUID.self, column: 1)),
            credentialID: try row.decode(Data.self, column: 2), publicKey: try row.decode(Data.self, column: 3),
            algorithm: algorithm, signCount: signCount, backupEligible: try row.decode(Bool.self, column: 6),
            backedUp: try row.decode(Bool.self, column: 7),
            transports: try row.decode(String.self, column: 8).split(separator: " ").map(String.init),
            aaguid: try row.decode(Data.self, column: 9), name: try row.decode(String.self, column: 10),
            createdAt: try row.decode(Date.self, column: 11), lastUsedAt: try row.decode(Date?.self, column: 12))
    }
}
