import AuthCore
import DeepLinkRouting
import Foundation
import LatchApp
import LatchConfig
import LatchTestSupport
import PostgresClient
import Testing

/// A successful password sign-in costs two SQL statements (commit "A successful password sign-in costs two
/// statements"): `SessionStore.prepareSignIn` reads the limits, the failures, the trusted device and the user in
/// one, `completeSignIn` writes the session, the forgiveness and the audit row in the other. Counted by
/// pg_stat_statements, which the test clusters preload (`scripts/pg-cluster`), on the auth service latchd builds
/// (`LatchApplication.makeAuthService`) against a database of the test's own.
///
/// Why this fails on the code before that commit: sign-in counted the per-address and the per-email limit (two
/// statements), read the user, and the failures row or the trusted device, each on its own pool lease, before the
/// statement that writes the session: five statements a sign-in. Run against that code, this test counted 25 for
/// the 5 sign-ins, where it allows 10.
@Suite struct SignInStatementCountTests {
    static let password = "statement count Passphrase 3"
    static let signIns = 5

    /// The clock stands still: the signing-key ring read by the warm-up sign-in stays fresh
    /// (`SigningKeySchedule.cacheInterval` after it was read, by this clock), so no reload of `signing_keys` falls
    /// into the counted window, and every sign-in shares one rate-limit window.
    struct StoppedClock: WallClock {
        let instant: Date
        func now() -> Date { instant }
    }

    @Test func aSuccessfulPasswordSignInCostsTwoStatementsAndAFailedOneIsCountedApart() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        // The test's own connection: reading pg_stat_statements, it is left out of the counts by its text.
        let observer = try PostgresConnection(url: database.url)
        defer { observer.close() }

        let mailDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latch-count-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mailDirectory) }
        let configuration = try ConfigurationLoader(environment: TestPooler.routed([
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": database.url,
            "LATCH_MAIL_DIR": mailDirectory.path,
            "LATCH_LINK_BASE": TestApp.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
        ])).load()
        // The pool and the service exactly as latchd makes them (LatchApplication.init).
        let pool = PostgresPool(configuration: DatabaseConnections(configuration: configuration)
            .pool(maxConnections: configuration.databasePoolSize))
        defer { pool.close() }
        let service = try LatchApplication.makeAuthService(
            configuration: configuration, pool: pool, clock: StoppedClock(instant: Date()))
        let parser = DeepLinkParser(configuration: configuration.auth.deepLinks)

        let email = "counted-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        let ip = "192.0.2.7"
        let agent = "SignInStatementCountTests"
        _ = try service.signUp(email: email, password: Self.password, ip: ip, userAgent: agent)
        let link = try observer.query(
            "SELECT deep_link FROM outbox WHERE recipient = $1 AND kind = $2", [email, MailKind.confirmEmail.rawValue]
        ).first?.decode(String?.self, column: 0)
        guard let link, let url = URL(string: link), case .confirmAuth(let token)? = parser.parse(url).link else {
            Issue.record("no confirm link for \(email)")
            return
        }
        _ = try service.confirm(token: token, ip: ip, userAgent: agent)
        // Warm-up: reads (on a new database, makes) the signing keys, and gives the device token.
        let first = try service.signIn(email: email, password: Self.password, deviceToken: nil, ip: ip,
                                       userAgent: agent)
        let deviceToken = try #require(first.session?.deviceToken)

        let succeeded = try StatementLog.record(observer) {
            for number in 0..<Self.signIns {
                // Half as a client that presents its trusted device, half as a new client.
                _ = try service.signIn(email: email, password: Self.password,
                                       deviceToken: number.isMultiple(of: 2) ? deviceToken : nil, ip: ip,
                                       userAgent: agent)
            }
        }
        let successCalls = succeeded.calls
        let listing = succeeded.listing
        #expect(successCalls <= 2 * Self.signIns,
                "\(Self.signIns) successful sign-ins ran \(successCalls) statements:\n\(listing)")
        #expect(!succeeded.statements.contains { $0.query.contains("signing_keys") },
                "the signing keys were read again inside the window:\n\(listing)")
        if !succeeded.evicted {
            // Not a bound: a guard that the window was counted at all (a count of 0 would pass the bound above).
            #expect(successCalls >= Self.signIns, "pg_stat_statements counted \(successCalls):\n\(listing)")
        }

        let failed = try StatementLog.record(observer) {
            #expect(throws: AuthError.invalidCredentials) {
                try service.signIn(email: email, password: "not the Passphrase 3", deviceToken: nil, ip: ip,
                                   userAgent: agent)
            }
        }
        let failureCalls = failed.calls
        let failedListing = failed.listing
        if !failed.evicted {
            #expect(failureCalls > 0, "a failed sign-in is counted apart")
        }
        print("""
            SignInStatementCountTests: \(Self.signIns) successful sign-ins ran \(successCalls) statements:
            \(listing)
            one failed sign-in (wrong password) ran \(failureCalls) statements:
            \(failedListing)
            """)
    }
}
