import AuthCore
import DeepLinkRouting
import Foundation
import LatchConfig
import LatchTestSupport
import PostgresClient
import Synchronization
import TestKit
import Testing

/// One unit of work (ARCHITECTURE.md, security rule 9): every flow's writes and its audit row commit in one
/// PostgreSQL transaction, so no crash can leave a committed security event without its record. Here the real
/// latchd is SIGKILLed in the middle of a stream of password changes, address-change requests, password resets and
/// account deletions, in several rounds, and after each kill the database must hold, for every committed change,
/// exactly its audit row. With one transaction a kill lands before COMMIT (nothing of the flow stays) or after it
/// (all of it stays), so the checks are invariants that hold whatever moment the kill lands: no timing is asserted.
///
/// Why this fails on the code before the unit of work: each flow committed its writes (one autocommit statement),
/// then sent the audit INSERT on another pool lease. A kill between the two kept the change and lost its row: a
/// `password_version` bumped with no `password_changed`/`password_reset` row, a redeemed reset token with no
/// `password_reset`, a reset or address-change token with no `…_requested` row, a user gone with no
/// `account_deleted` row. latchd runs here with a one-connection pool and more requests in flight than that, so an
/// audit INSERT sent after its commit waits in the pool's queue behind other requests' statements, and the gap is
/// milliseconds wide. While latchd runs, the test's own reader checks the invariants over and over (one snapshot
/// each) and kills latchd the moment it sees a change without its row, which then may stay lost for good; else
/// the kill comes after a random number of answers. Against a latchd built from the older code, every run failed:
/// the reader saw the gap in the first round, and a row stayed lost after a kill in 9 runs of 15 (without
/// the reader, a kill after a random number of answers left a lost row in 7 runs of 12).
@Suite(.serialized) struct AuditCrashTests {
    /// Every user keeps this password throughout: a change or a reset sets it again. Each one still bumps
    /// `password_version` (what the checks count), and no client has to guess after a kill whether a change it
    /// sent committed.
    static let password = "audit crash Passphrase 7"
    static let rounds = 4
    /// Requests of the stream per round (a reset is two: forgot, then reset): 200 in all.
    static let requestsPerRound = 50
    static let clientThreads = 6
    static let usersPerThread = 8

    @Test func everyCommittedChangeKeepsItsAuditRowWhereverLatchdIsKilled() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        // One connection: the test's backend is told from the daemon's by `pg_backend_pid()`.
        let pool = database.makePool(maxConnections: 1)
        defer { pool.close() }
        let mailDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latch-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mailDirectory) }
        let environment = Self.environment(databaseURL: database.url, mailDirectory: mailDirectory)
        let links = try OutboxLinks(pool: pool, environment: environment)

        var workers: [CrashWorker] = []
        var seeded: [String] = []
        // Users whose lost row was reported already: it stays lost, and the later rounds look for new ones.
        var reported: Set<String> = []
        var totals = Totals()
        var inFlightAtKills: [Int] = []
        for round in 1...Self.rounds {
            let daemon = try KillableDaemon(environment: environment)
            if round == 1 {
                let accounts = try Self.seed(count: Self.clientThreads * Self.usersPerThread, port: daemon.port,
                                             links: links)
                seeded = accounts.map(\.id)
                workers = (0..<Self.clientThreads).map { index in
                    let own = accounts[(index * Self.usersPerThread)...].prefix(Self.usersPerThread)
                    return CrashWorker(index: index, accounts: Array(own))
                }
            }

            let stream = RequestStream(capacity: Self.requestsPerRound)
            let finished = DispatchGroup()
            for worker in workers {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    worker.run(port: daemon.port, stream: stream, links: links)
                }.start()
            }
            // The kill comes after a random number of answers, so it lands at another point of the stream each
            // round; or at once if the test's reader sees a change committed without its audit row (with the unit
            // of work no snapshot ever shows one).
            let killAfter = Int.random(in: 8...36)
            let deadline = Date().addingTimeInterval(30)
            var seenLive: [AuditInvariants.Problem] = []
            while stream.answered < killAfter && finished.wait(timeout: .now()) != .success && Date() < deadline {
                seenLive = try AuditInvariants.check(pool, seeded: seeded).problems
                    .filter { !reported.contains($0.user) }
                if !seenLive.isEmpty { break }
            }
            daemon.kill()
            inFlightAtKills.append(stream.issued - stream.answered)
            #expect(finished.wait(timeout: .now() + 60) == .success,
                    "round \(round): the clients stop once latchd is dead")
            #expect(seenLive.isEmpty, """
                round \(round): while latchd ran, a reader saw a committed change without its audit row:
                \(seenLive.map(\.description).joined(separator: "\n"))
                """)

            // A statement the dead daemon had sent may still be running in its backend (and, without a
            // transaction around it, commit): check once no backend but the test's own runs a statement or holds
            // a transaction open. Idle ones may stay: a transaction pooler keeps its server sessions.
            let settled = try eventually(within: .seconds(30), every: .milliseconds(50)) {
                try pool.query("""
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
                      AND state IS DISTINCT FROM 'idle'
                    """, []).scalar(Int.self) == 0
            }
            #expect(settled, "round \(round): the killed daemon's backends ended")
            let check = try AuditInvariants.check(pool, seeded: seeded)
            let new = check.problems.filter { !reported.contains($0.user) }
            reported.formUnion(new.map(\.user))
            #expect(new.isEmpty, """
                round \(round), latchd killed after \(stream.answered) answers to \(stream.issued) requests: \
                a committed change without its audit row:
                \(new.map(\.description).joined(separator: "\n"))
                """)
            totals = check.totals
        }
        print("AuditCrashTests: requests in flight at each kill: \(inFlightAtKills); committed: \(totals)")
        // The stream did commit each kind of change, so the checks above were not vacuous.
        #expect(totals.passwordChanges > 0, "\(totals)")
        #expect(totals.resets > 0, "\(totals)")
        #expect(totals.emailChangeRequests > 0, "\(totals)")
        #expect(totals.deletions > 0, "\(totals)")
    }

    static func environment(databaseURL: String, mailDirectory: URL) -> [String: String] {
        [
            "DATABASE_URL": databaseURL,
            "LATCH_SECRET_KEY": TestSecret.base64,
            "LATCH_LISTEN": "127.0.0.1:0",
            "LATCH_METRICS_LISTEN": "127.0.0.1:0",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_MAIL_DIR": mailDirectory.path,
            "LATCH_LINK_BASE": TestApp.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            // No worker sends (and scrubs) mail: the test reads each reset and confirm link from its outbox row.
            "LATCH_OUTBOX_WORKERS": "0",
            "LATCH_DEFERRED_MAIL_INTERVAL": "0.05",
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
            "LATCH_THREADS": "4",
            "LATCH_HASH_WORKERS": "4",
            // One connection for more requests than that in flight: see the suite's note.
            "LATCH_DB_POOL_SIZE": "1",
            "LATCH_RATE_SIGNIN_IP": "100000/1h",
            "LATCH_RATE_SIGNIN_EMAIL": "100000/1h",
            "LATCH_RATE_SIGNUP_IP": "100000/1h",
            "LATCH_RATE_SIGNUP_EMAIL": "100000/1h",
            "LATCH_RATE_FORGOT_IP": "100000/1h",
            "LATCH_RATE_FORGOT_EMAIL": "100000/1h",
        ]
    }

    /// Confirmed users, each signed in once (through the API: sign-up, then the confirm link of its outbox row).
    static func seed(count: Int, port: Int, links: OutboxLinks) throws -> [CrashWorker.Account] {
        try (0..<count).map { number in
            let email = "crash\(number)-\(UUID().uuidString.prefix(8).lowercased())@example.test"
            let signUp = try CrashWorker.send("POST", "/v1/signup", ["email": email, "password": password], port: port)
            guard signUp.status == 202 else { throw TestApp.FlowError.unexpected(signUp.status, signUp.text) }
            guard case .confirmAuth(let token)? = try links.newest(to: email, kind: .confirmEmail) else {
                throw TestApp.FlowError.noToken(email)
            }
            let confirmed = try CrashWorker.send("POST", "/v1/confirm", ["token": token], port: port)
            guard confirmed.status == 200 else { throw TestApp.FlowError.unexpected(confirmed.status, confirmed.text) }
            let session = try confirmed.json(SessionJSON.self)
            return CrashWorker.Account(id: session.user.id, email: email, bearer: session.access_token)
        }
    }
}

extension AuditCrashTests {
    /// What the database must say after a kill, whatever moment it landed, and how many changes committed in all.
    enum AuditInvariants {
        struct Problem: CustomStringConvertible {
            let user: String
            let text: String
            var description: String { "\(user): \(text)" }
        }

        struct Result {
            var problems: [Problem]
            var totals: Totals
        }

        static func check(_ pool: PostgresPool, seeded: [String]) throws -> Result {
            var problems: [Problem] = []
            var totals = Totals()
            // One snapshot for both reads: the reader that runs while latchd does must not see a deletion between
            // them. Per surviving user: the changes as the tables show them, beside the audit rows that record them.
            let (rows, audited) = try pool.withConnection { connection in
                try connection.execute("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                defer { _ = try? connection.execute("COMMIT") }
                let rows = try connection.query("""
                    SELECT u.id::text, u.password_version,
                           (SELECT count(*) FROM audit_log a WHERE a.user_id = u.id AND a.event = 'password_changed'),
                           (SELECT count(*) FROM audit_log a WHERE a.user_id = u.id AND a.event = 'password_reset'),
                           (SELECT count(*) FROM auth_tokens t
                            WHERE t.user_id = u.id AND t.purpose = 'reset' AND t.used_at IS NOT NULL),
                           (SELECT count(*) FROM auth_tokens t WHERE t.user_id = u.id AND t.purpose = 'reset'),
                           (SELECT count(*) FROM audit_log a
                            WHERE a.user_id = u.id AND a.event = 'password_reset_requested'),
                           (SELECT count(*) FROM auth_tokens t WHERE t.user_id = u.id AND t.purpose = 'email_change'),
                           (SELECT count(*) FROM audit_log a
                            WHERE a.user_id = u.id AND a.event = 'email_change_requested'),
                           (SELECT count(*) FROM sessions s WHERE s.user_id = u.id),
                           (SELECT count(*) FROM audit_log a
                            WHERE a.user_id = u.id AND a.event IN ('sign_in_succeeded', 'email_confirmed'))
                    FROM users u ORDER BY u.id
                    """, [])
                let audited = try connection
                    .query("SELECT user_id::text FROM audit_log WHERE event = 'account_deleted'", [])
                    .map { try $0.decode(String.self, column: 0) }
                return (rows, audited)
            }
            var surviving: Set<String> = []
            for row in rows {
                let id = try row.decode(String.self, column: 0)
                surviving.insert(id)
                let version = try row.decode(Int.self, column: 1)
                let changed = try row.decode(Int.self, column: 2)
                let resetAudits = try row.decode(Int.self, column: 3)
                let usedResetTokens = try row.decode(Int.self, column: 4)
                let resetTokens = try row.decode(Int.self, column: 5)
                let resetRequests = try row.decode(Int.self, column: 6)
                let changeTokens = try row.decode(Int.self, column: 7)
                let changeRequests = try row.decode(Int.self, column: 8)
                let sessions = try row.decode(Int.self, column: 9)
                let sessionAudits = try row.decode(Int.self, column: 10)
                func lost(_ text: String) { problems.append(Problem(user: id, text: text)) }
                // Only a change (password_changed) or a reset (password_reset) bumps a confirmed user's version.
                if version - 1 != changed + resetAudits {
                    lost("password_version \(version) after \(changed) password_changed and "
                        + "\(resetAudits) password_reset rows")
                }
                if usedResetTokens != resetAudits {
                    lost("\(usedResetTokens) redeemed reset tokens, \(resetAudits) password_reset rows")
                }
                if resetTokens != resetRequests {
                    lost("\(resetTokens) reset tokens, \(resetRequests) password_reset_requested rows")
                }
                // Every new address is fresh, so every request made a link (none was "taken").
                if changeTokens != changeRequests {
                    lost("\(changeTokens) email_change tokens, \(changeRequests) email_change_requested rows")
                }
                // Confirm and sign-in open the only sessions here, each with its row in the same statement.
                if sessions != sessionAudits {
                    lost("\(sessions) sessions, \(sessionAudits) sign_in_succeeded/email_confirmed rows")
                }
                totals.passwordChanges += changed
                totals.resets += resetAudits
                totals.emailChangeRequests += changeRequests
            }

            let deleted = Set(seeded).subtracting(surviving)
            var deletionRows: [String: Int] = [:]
            for id in audited { deletionRows[id, default: 0] += 1 }
            for id in deleted.sorted() where deletionRows[id] != 1 {
                problems.append(Problem(user: id, text: "deleted, \(deletionRows[id] ?? 0) account_deleted rows"))
            }
            for id in Set(deletionRows.keys).subtracting(deleted).sorted() {
                problems.append(Problem(user: id, text: "an account_deleted row, and the user is still there"))
            }
            totals.deletions = deleted.count
            return Result(problems: problems, totals: totals)
        }
    }

    struct Totals: CustomStringConvertible {
        var passwordChanges = 0
        var resets = 0
        var emailChangeRequests = 0
        var deletions = 0

        var description: String {
            "\(passwordChanges) password changes, \(resets) resets, \(emailChangeRequests) address-change requests, "
                + "\(deletions) deletions"
        }
    }

    /// The round's budget of requests and the count of answers, shared by the client threads and the killer.
    final class RequestStream: Sendable {
        private let counts = Mutex<(issued: Int, answered: Int)>((0, 0))
        let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        var issued: Int { counts.withLock { $0.issued } }
        var answered: Int { counts.withLock { $0.answered } }

        /// Reserves one request of the budget; false once it is spent.
        func take() -> Bool {
            counts.withLock { counts in
                guard counts.issued < capacity else { return false }
                counts.issued += 1
                return true
            }
        }

        func answer() { counts.withLock { $0.answered += 1 } }
    }

    /// The newest link mailed to an address, read from its outbox row as the app's router would read the mail's.
    struct OutboxLinks: Sendable {
        let pool: PostgresPool
        let parser: DeepLinkParser

        init(pool: PostgresPool, environment: [String: String]) throws {
            self.pool = pool
            let configuration = try ConfigurationLoader(environment: environment).load()
            parser = DeepLinkParser(configuration: configuration.auth.deepLinks)
        }

        func newest(to recipient: String, kind: MailKind) throws -> AppDeepLink? {
            let rows = try pool.query(
                "SELECT deep_link FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
                [recipient, kind.rawValue])
            guard let text = try rows.first?.decode(String?.self, column: 0), let url = URL(string: text) else {
                return nil
            }
            return parser.parse(url).link
        }

        func count(to recipient: String, kind: MailKind) throws -> Int {
            try pool.query("SELECT count(*)::int8 FROM outbox WHERE recipient = $1 AND kind = $2",
                           [recipient, kind.rawValue]).scalar(Int.self) ?? 0
        }
    }

    /// One client thread's users and what it knows of them across rounds. Only its own thread touches them during a
    /// round; the rounds are joined before the next starts.
    final class CrashWorker: Sendable {
        struct Account {
            let id: String
            let email: String
            /// nil once the session may have ended (a reset, or a 401): the next step signs in again.
            var bearer: String?
            /// The account answered as deleted.
            var gone = false
        }

        enum Step { case changePassword, requestEmailChange, reset, delete }

        /// What a signed-in account does next, in turn (each thread starts at its own place): deletions are rarer
        /// than the rest, so that the users last the four rounds.
        static let cycle: [Step] = [
            .changePassword, .requestEmailChange, .reset, .changePassword, .delete, .requestEmailChange,
        ]

        let index: Int
        private let accounts: Mutex<[Account]>
        private let steps = Mutex(0)

        init(index: Int, accounts: [Account]) {
            self.index = index
            self.accounts = Mutex(accounts)
        }

        /// Sends requests until the round's budget is spent, its accounts are all gone, or latchd stops answering.
        func run(port: Int, stream: RequestStream, links: OutboxLinks) {
            var accounts = self.accounts.withLock { $0 }
            var step = steps.withLock { $0 }
            defer {
                self.accounts.withLock { [accounts] in $0 = accounts }
                steps.withLock { [step] in $0 = step }
            }
            while true {
                let live = accounts.indices.filter { !accounts[$0].gone }
                guard !live.isEmpty else { return }
                let slot = live[step % live.count]
                let kind = Self.cycle[(index + step) % Self.cycle.count]
                step += 1
                do {
                    let more = try perform(kind, on: &accounts[slot], port: port, stream: stream, links: links)
                    guard more else { return }
                } catch {
                    return  // no answer: latchd was killed
                }
            }
        }

        /// One step for one account; false once the round's budget is spent.
        private func perform(
            _ kind: Step, on account: inout Account, port: Int, stream: RequestStream, links: OutboxLinks
        ) throws -> Bool {
            let password = AuditCrashTests.password
            guard let bearer = account.bearer else {
                guard stream.take() else { return false }
                let signIn = try Self.send("POST", "/v1/signin", ["email": account.email, "password": password],
                                           port: port)
                stream.answer()
                if signIn.status == 200 {
                    account.bearer = try signIn.json(SessionJSON.self).access_token
                } else if signIn.status == 401 {
                    account.gone = true  // the password never changes: only a deleted account refuses it
                }
                return true
            }
            guard stream.take() else { return false }
            let status: Int
            switch kind {
            case .changePassword:
                status = try Self.send("POST", "/v1/password/change",
                                       ["current_password": password, "new_password": password],
                                       bearer: bearer, port: port).status
                stream.answer()
            case .requestEmailChange:
                let newEmail = "moved-\(UUID().uuidString.prefix(12).lowercased())@example.test"
                status = try Self.send("POST", "/v1/email/change", ["new_email": newEmail, "password": password],
                                       bearer: bearer, port: port).status
                stream.answer()
            case .delete:
                status = try Self.send("DELETE", "/v1/me", ["password": password], bearer: bearer, port: port).status
                stream.answer()
                if status == 204 { account.gone = true }
            case .reset:
                let mailed = try links.count(to: account.email, kind: .resetPassword)
                status = try Self.send("POST", "/v1/password/forgot", ["email": account.email], port: port).status
                stream.answer()
                // The link follows the answer (latchd resolves the request on its next beat), unless a kill
                // comes first: then the next daemon resolves it, and this step has nothing to redeem.
                guard status == 202,
                      try eventually(within: .seconds(3), { try links.count(to: account.email, kind: .resetPassword) > mailed }),
                      case .resetPassword(let token)? = try links.newest(to: account.email, kind: .resetPassword)
                else { return true }
                // Every session of the user ends with a reset, answered or not.
                account.bearer = nil
                guard stream.take() else { return false }
                _ = try Self.send("POST", "/v1/password/reset", ["token": token, "password": password], port: port)
                stream.answer()
                return true
            }
            if status == 401 { account.bearer = nil }
            return true
        }

        /// One JSON request on a fresh connection; throws when latchd does not answer.
        static func send(
            _ method: String, _ path: String, _ fields: [String: String], bearer: String? = nil, port: Int
        ) throws -> HTTPTestClient.Response {
            let client = try HTTPTestClient(port: port)
            defer { client.close() }
            let headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
            return try client.sendJSON(method, path, json: TestApp.body(fields), headers: headers)
        }
    }

    /// The latchd binary, started on ephemeral ports and ended only by SIGKILL (as by a crash or the OOM killer).
    struct KillableDaemon {
        let process: DaemonProcess
        let port: Int

        init(environment: [String: String]) throws {
            (process, port) = try DaemonProcess.startLatchd(environment: environment)
        }

        func kill() {
            process.signal(SIGKILL)
            process.wait(timeout: 10)
        }
    }
}
