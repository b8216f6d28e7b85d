import AuthCore
import Foundation
import LatchApp
import LatchConfig
import LatchTestSupport
import PostgresClient
import Testing

/// Issue 24, finding 6: forgot, resend, confirm-by-code and reset-by-code cost more for a registered address
/// than for an unknown one, so their time told whether an address has an account. The cause was in the
/// statements: for a registered address they wrote rows (token, mail, audit; the counted wrong code) where for
/// an unknown one they wrote nothing (and reset-by-code skipped a read). Here pg_stat_statements lists what one
/// answer runs, on the auth service latchd builds (`LatchApplication.makeAuthService`), with no resolver running:
/// for both kinds of address, the same statements, as often, and what writes for one writes for the other (forgot
/// and resend the same rows, since their lookup moved after the answer: `DeferredMail`). The times
/// themselves are shown by `make timing-oracle`, never asserted.
///
/// Why this fails on the code before: forgot and resend wrote three rows for a registered address and none for
/// an unknown one; a wrong code was counted and audited for a registered address only; and reset-by-code read
/// the token only when the address had an account.
@Suite struct AnswerWorkTests {
    static let password = "answer work Passphrase 5"

    enum Flow: String, CaseIterable, CustomTestStringConvertible {
        case forgot, resend, confirmByCode = "confirm by code", resetByCode = "reset by code"
        case signInByMail = "sign-in by mail", signInCode = "sign-in code"
        var testDescription: String { rawValue }

        /// Forgot, resend and sign-in by mail write one request row for every address. A wrong code writes its
        /// audit row for every address, and is counted on the owner's live code (an UPDATE of one row, HOT or not
        /// as the page allows) for an account only.
        var writesTheSameRows: Bool { self == .forgot || self == .resend || self == .signInByMail }

        /// Any well-formed binding and secret: the answers' work must not depend on them.
        static let binding = String(repeating: "b", count: 43)
        static let secret = String(repeating: "s", count: 43)

        func answer(_ service: AuthService, _ email: String, ip: String) {
            switch self {
            case .forgot: _ = try? service.forgotPassword(email: email, ip: ip)
            case .resend: _ = try? service.resendConfirmation(email: email, ip: ip)
            case .confirmByCode: _ = try? service.confirm(email: email, code: "12345678", ip: ip, userAgent: nil)
            case .resetByCode:
                _ = try? service.resetPassword(email: email, code: "12345678", newPassword: "another Passphrase 6",
                                               ip: ip)
            case .signInByMail:
                try? service.requestEmailSignIn(email: email, binding: Self.binding, ip: ip, userAgent: nil)
            case .signInCode:
                _ = try? service.completeEmailSignIn(email: email, code: "12345678", bindingSecret: Self.secret, ip: ip,
                                                     userAgent: nil)
            }
        }
    }

    @Test(arguments: Flow.allCases)
    func anAnswerRunsTheSameStatementsForAnAccountAndForNoAccount(_ flow: Flow) throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let observer = try PostgresConnection(url: database.url)
        defer { observer.close() }
        let configuration = try ConfigurationLoader(environment: TestPooler.routed([
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": database.url,
            "LATCH_MAIL_DIR": "/tmp/latch-unused", "LATCH_LINK_BASE": TestApp.linkBase, "LATCH_APP_SCHEME": "myapp",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_ARGON2_MEMORY_KIB": "64", "LATCH_ARGON2_ITERATIONS": "1",
        ])).load()
        let pool = PostgresPool(configuration: DatabaseConnections(configuration: configuration)
            .pool(maxConnections: configuration.databasePoolSize))
        defer { pool.close() }
        let service = try LatchApplication.makeAuthService(configuration: configuration, pool: pool)

        // Registered and unconfirmed (resend has something to send), with a live reset code (reset-by-code has a
        // record to count the wrong code on). Every answer comes from a new client address (TEST-NET-2) and names a new
        // address, so each one's rate-limit rows are new rows, alike for both sides.
        var addresses = (1...254).lazy.map { "198.51.100.\($0)" }.makeIterator()
        func ip() -> String { addresses.next()! }
        // One for the warm-up, one for each try: a try is repeated when pg_stat_statements evicted entries in its
        // window (its table is shared by the whole cluster, which other tests' databases fill).
        let tries = 5
        var accounts: [String] = []
        for number in 0...tries {
            let email = "known\(number)-\(UUID().uuidString.prefix(8).lowercased())@example.test"
            _ = try service.signUp(email: email, password: Self.password, ip: ip(), userAgent: nil)
            // Only here: a forgot of its own would leave the address a rate-limit row that a forgot answer then
            // updates rather than inserts (as it would for an unknown address asked for before).
            if flow == .resetByCode { try service.forgotPassword(email: email, ip: ip()) }
            // Likewise a live sign-in record for the sign-in code to be counted on.
            if flow == .signInCode {
                try service.requestEmailSignIn(email: email, binding: Flow.binding, ip: ip(), userAgent: nil)
            }
            accounts.append(email)
        }
        try service.resolveAllDeferredMail()
        let nobody = { "nobody-\(UUID().uuidString.prefix(8).lowercased())@example.test" }
        // Warm-up: the first answer of a kind on a new database reads catalogs and prepares.
        flow.answer(service, accounts[0], ip: ip())
        flow.answer(service, nobody(), ip: ip())

        var known = StatementLog(statements: [], evicted: true), unknown = known
        for number in 1...tries where known.evicted || unknown.evicted {
            known = try StatementLog.record(observer) { flow.answer(service, accounts[number], ip: ip()) }
            unknown = try StatementLog.record(observer) { flow.answer(service, nobody(), ip: ip()) }
        }
        try #require(!known.evicted && !unknown.evicted, "pg_stat_statements evicted entries in every try")
        let listing = "an account:\n\(known.listing)\nno account:\n\(unknown.listing)"
        #expect(known.calls > 0, "nothing counted:\n\(listing)")

        // The same statements, as often.
        func statements(_ log: StatementLog) -> [String] { log.statements.map { "\($0.calls) × \($0.query)" } }
        #expect(statements(known) == statements(unknown), "\(listing)")
        // PostgreSQL may add a housekeeping record or two to any statement, a read too (pruning a page with dead
        // rows, a hint-bit page image); a row with its index entries is three records or more.
        for (mine, theirs) in zip(known.statements, unknown.statements) {
            if flow.writesTheSameRows {
                #expect(abs(mine.walRecords - theirs.walRecords) <= 2, "\(listing)")
            } else if mine.walRecords >= 3 {
                #expect(theirs.walRecords >= 1, "a statement writes for an account only:\n\(listing)")
            }
        }
    }
}
