import AuthCore
import Foundation
import LatchCrypto
import LatchStore
import PostgresClient
import Synchronization
import Testing

/// PostgresSigningKeyStore.swift and sql/0006_signing_keys.sql.
@Suite struct PostgresSigningKeyStoreTests {
    static let sealer = SigningKeySealer(secret: try! ServerSecret(bytes: Data(repeating: 5, count: 32)))

    func newKey(_ fixture: StoreFixture, created: TimeInterval = 0, activates: TimeInterval = 0) throws -> SigningKey {
        try ES256KeyFactory(sealer: Self.sealer).makeKey(createdAt: fixture.at(created), activatesAt: fixture.at(activates))
    }

    func event(_ name: AuditEventName, _ kid: String, _ fixture: StoreFixture) -> AuditEvent {
        AuditEvent(name: name, at: fixture.t0, userID: nil, ip: nil, detail: ["kid": kid, "actor": "opal"])
    }

    @Test func keysAndTheirChangesAreStoredAsDecidedWithTheirAuditInTheSameTransaction() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let keys = PostgresSigningKeyStore(pool: fixture.pool)
        #expect(try keys.signingKeys().isEmpty)
        let first = try newKey(fixture)
        let second = try newKey(fixture, created: 10, activates: 700)
        try keys.changeSigningKeys { existing in
            #expect(existing.isEmpty)
            return SigningKeyChange(inserted: [first, second], audit: [event(.signingKeyCreated, first.kid, fixture)])
        }
        #expect(try keys.signingKeys() == [first, second], "oldest first, every field as written")

        try keys.changeSigningKeys { existing in
            #expect(existing.map(\.kid) == [first.kid, second.kid])
            return SigningKeyChange(activated: [second.kid: fixture.at(20)], revoked: [first.kid: fixture.at(20)])
        }
        let stored = try keys.signingKeys()
        #expect(stored[0].revokedAt == fixture.at(20) && stored[1].activatesAt == fixture.at(20))
        // A revoked key is not revoked again (its time stays) nor brought forward.
        try keys.changeSigningKeys { _ in
            SigningKeyChange(activated: [first.kid: fixture.at(30)], revoked: [first.kid: fixture.at(30)])
        }
        #expect(try keys.signingKeys()[0] == stored[0])

        let audit = try fixture.pool.query(
            "SELECT event, detail->>'kid', detail->>'actor', user_id IS NULL FROM audit_log ORDER BY id")
        #expect(audit.count == 1)
        #expect(try audit.first?.decode(String.self, column: 0) == "signing_key_created")
        #expect(try audit.first?.decode(String.self, column: 1) == first.kid)
        #expect(try audit.first?.decode(Bool.self, column: 3) == true)
    }

    @Test func aChangeThatFailsLeavesNoKeyAndNoAuditRow() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let keys = PostgresSigningKeyStore(pool: fixture.pool)
        var broken = try newKey(fixture)
        broken.sealedPrivateKey.nonce = Data(count: 8)  // the schema wants 12 bytes
        #expect(throws: PostgresError.self) {
            try keys.changeSigningKeys { _ in
                SigningKeyChange(inserted: [broken], audit: [event(.signingKeyCreated, broken.kid, fixture)])
            }
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) { try keys.changeSigningKeys { _ in throw Refused() } }
        #expect(try keys.signingKeys().isEmpty)
        #expect(try fixture.pool.query("SELECT count(*) FROM audit_log").scalar(Int.self) == 0)
    }

    @Test func theSchemaStoresPublicPointsSealedKeysAndThumbprintsOnly() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let keys = PostgresSigningKeyStore(pool: fixture.pool)
        let good = try newKey(fixture)
        var badPoint = good
        badPoint.publicKey[0] = 0x02
        var badKid = try newKey(fixture)
        badKid.kid = "not a thumbprint"
        var early = try newKey(fixture, created: 10, activates: 5)
        early.kid = try newKey(fixture).kid
        for bad in [badPoint, badKid, early] {
            let error = #expect(throws: PostgresError.self) { try keys.changeSigningKeys { _ in SigningKeyChange(inserted: [bad]) } }
            #expect(error?.isCheckViolation == true)
        }
        try keys.changeSigningKeys { _ in SigningKeyChange(inserted: [good]) }
    }

    /// Instances starting together on an empty database each find no key and each want to make one; the lock
    /// makes them take turns, so the later ones see the first one's key and make none. Several rounds, since one
    /// round of threads may happen not to overlap.
    @Test func instancesStartingTogetherMakeOneFirstKey() throws {
        let fixture = try StoreFixture(maxConnections: 16)
        defer { fixture.close() }
        for round in 1...5 {
            try fixture.pool.query("DELETE FROM signing_keys")
            try fixture.pool.query("DELETE FROM audit_log")
            let kids = Mutex<[String]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let keys = SigningKeys(
                    store: PostgresSigningKeyStore(pool: fixture.pool), factory: ES256KeyFactory(sealer: Self.sealer),
                    clock: SystemClock(), schedule: SigningKeySchedule(jwksMaxAge: 600, accessTokenTTL: 900))
                do {
                    let kid = try keys.ring(actor: "latchd").current.kid
                    kids.withLock { $0.append(kid) }
                } catch {
                    failures.withLock { $0.append(String(describing: error)) }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            #expect(Set(kids.withLock { $0 }).count == 1, "round \(round): every instance signs with the same key")
            #expect(try PostgresSigningKeyStore(pool: fixture.pool).signingKeys().count == 1, "round \(round)")
            #expect(try fixture.pool.query("SELECT count(*) FROM audit_log WHERE event = 'signing_key_created'")
                .scalar(Int.self) == 1, "round \(round)")
        }
    }

    @Test func purgeDeletesKeysRevokedOrReplacedBeforeTheRetentionAndNeverTheOneThatSigns() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let keys = PostgresSigningKeyStore(pool: fixture.pool)
        let day: TimeInterval = 86400
        let replaced = try newKey(fixture)                                   // signed until day 1
        let current = try newKey(fixture, created: day - 600, activates: day)
        let revoked = try newKey(fixture, created: 2 * day, activates: 2 * day)
        let waiting = try newKey(fixture, created: 60 * day, activates: 100 * day)
        try keys.changeSigningKeys { _ in SigningKeyChange(inserted: [replaced, current, revoked, waiting]) }
        try keys.changeSigningKeys { _ in SigningKeyChange(revoked: [revoked.kid: fixture.at(3 * day)]) }

        // Cutoff day 2: the key replaced on day 1 goes; the one revoked on day 3 not yet.
        let result = try fixture.admin.purge(now: fixture.at(50 * day), retention: 48 * day, unconfirmedTTL: 7 * day)
        #expect(result.signingKeys == 1)
        #expect(try keys.signingKeys().map(\.kid) == [current.kid, revoked.kid, waiting.kid])
        #expect(try fixture.admin.purge(now: fixture.at(40 * day), retention: 1 * day, unconfirmedTTL: 7 * day)
            .signingKeys == 1)
        #expect(try keys.signingKeys().map(\.kid) == [current.kid, waiting.kid],
                "the current key stays: the only later one waits to take over")
    }
}
