import AuthCore
import Foundation
import PostgresClient

/// `SigningKeyStore` on PostgreSQL: the `signing_keys` table (sql/0006_signing_keys.sql).
///
/// Every change runs in one transaction that first takes a transaction-scoped advisory lock, then reads the keys
/// for AuthCore to decide on: a decision is never made on keys another instance is changing, so two instances
/// that start together on an empty table make one first key. Readers take no lock.
public struct PostgresSigningKeyStore: SigningKeyStore, Sendable {
    /// Key of the advisory lock that serializes key changes (a constant private to Latch, beside the migrator's).
    static let lockKey = 7_420_190_422_006

    public let database: any PostgresQueryable

    public init(pool: any PostgresQueryable) {
        database = pool
    }

    /// Latch has a handful of keys at any time: read them all, oldest first.
    public func signingKeys() throws -> [SigningKey] {
        try Self.read(database, retry: .onConnectionLoss)
    }

    @discardableResult
    public func changeSigningKeys(_ decide: ([SigningKey]) throws -> SigningKeyChange) throws -> SigningKeyChange {
        try database.inTransaction { connection in
            // A separate statement before the read: in READ COMMITTED each statement sees what committed before
            // it started, so the read sees everything the previous holder of the lock wrote.
            try connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
            let change = try decide(try Self.read(connection, retry: .never))
            for key in change.inserted {
                try connection.query("""
                    INSERT INTO signing_keys (kid, algorithm, public_key, private_key_ciphertext, private_key_nonce,
                                              created_at, activates_at, revoked_at)
                    VALUES (\(key.kid), \(key.algorithm.rawValue), \(key.publicKey), \(key.sealedPrivateKey.ciphertext),
                            \(key.sealedPrivateKey.nonce), \(key.createdAt), \(key.activatesAt), \(key.revokedAt))
                    """)
            }
            for (kid, at) in change.activated {
                try connection.query("""
                    UPDATE signing_keys SET activates_at = \(at) WHERE kid = \(kid) AND revoked_at IS NULL
                    """)
            }
            for (kid, at) in change.revoked {
                try connection.query("UPDATE signing_keys SET revoked_at = \(at) WHERE kid = \(kid) AND revoked_at IS NULL")
            }
            let audit = PostgresAuthStore(pool: connection)
            for event in change.audit { try audit.record(event) }
            return change
        }
    }

    private static func read(_ database: any PostgresQueryable, retry: PostgresPool.Retry) throws -> [SigningKey] {
        try database.query("""
            SELECT kid, algorithm, public_key, private_key_ciphertext, private_key_nonce, created_at, activates_at,
                   revoked_at
            FROM signing_keys ORDER BY created_at, kid
            """, retry: retry).map { row in
            let algorithm = try row.decode(String.self, column: 1)
            guard let known = SigningAlgorithm(rawValue: algorithm) else {
                throw PostgresError.decoding(column: "algorithm", reason: "unknown signing algorithm")
            }
            return SigningKey(
                kid: try row.decode(String.self, column: 0), algorithm: known,
                publicKey: try row.decode(Data.self, column: 2),
                sealedPrivateKey: SealedPrivateKey(ciphertext: try row.decode(Data.self, column: 3),
                                                   nonce: try row.decode(Data.self, column: 4)),
                createdAt: try row.decode(Date.self, column: 5), activatesAt: try row.decode(Date.self, column: 6),
                revokedAt: try row.decode(Date?.self, column: 7))
        }
    }
}
