import AuthCore
import Foundation
import LatchApp
import LatchConfig
import LatchCrypto
import LatchStore
import PostgresClient

/// What a command runs against, built on first use so that `--help` and usage errors need no configuration and
/// listings never pay for building the service (which hashes a dummy password).
///
/// latchctl reads the same configuration as latchd (`ConfigurationLoader`), with one difference: it never sends
/// mail itself (with `--send` it queues mail for latchd's outbox worker), so the mail transport settings are only
/// required when a command queues mail.
final class CommandContext {
    let globals: GlobalOptions
    let terminal: Terminal
    let clock: any WallClock
    private let environment: [String: String]
    private var openPool: PostgresPool?

    init(globals: GlobalOptions, environment: [String: String], terminal: Terminal = Terminal(),
         clock: any WallClock = SystemClock()) {
        self.globals = globals
        self.environment = environment
        self.terminal = terminal
        self.clock = clock
    }

    /// The validated configuration.
    /// - Parameter queuesMail: the command queues mail, so `LATCH_SMTP_URL` or `LATCH_MAIL_DIR` must be set,
    ///   as latchd requires, or the mail would wait for a daemon that cannot send it.
    func configuration(queuesMail: Bool = false) throws(ConfigurationError) -> LatchConfiguration {
        var variables = environment
        // As flags, so the loader applies its rules: a flag overrides both forms of its setting in the environment,
        // and the two flags together are refused.
        var flags: [String] = []
        if let url = globals.databaseURL { flags += ["--database-url", url] }
        if let path = globals.databaseURLFile { flags += ["--database-url-file", path] }
        let mailSettings = ["LATCH_SMTP_URL", ConfigurationLoader.fileVariable(for: "LATCH_SMTP_URL"), "LATCH_MAIL_DIR"]
        let hasMailSetting = mailSettings.contains { !(variables[$0] ?? "").isEmpty }
        if !queuesMail && !hasMailSetting {
            // Never used: latchctl builds no transport. Only satisfies the loader's check meant for latchd.
            variables["LATCH_MAIL_DIR"] = "/nonexistent/latchctl-sends-no-mail"
        }
        return try ConfigurationLoader(environment: variables, arguments: flags).load(cores: 1)
    }

    /// A small pool (latchctl runs one statement at a time), opened once.
    func pool() throws(ConfigurationError) -> PostgresPool {
        if let openPool { return openPool }
        let pool = PostgresPool(
            configuration: DatabaseConnections(configuration: try configuration()).pool(maxConnections: 2))
        openPool = pool
        return pool
    }

    func adminStore() throws -> PostgresAdminStore {
        PostgresAdminStore(pool: try pool())
    }

    /// The user with this email (case-insensitively), read without building the service.
    /// - Throws: `AdminOperations.Failure.unknownUser`.
    func user(email: String) throws -> UserRecord {
        guard let user = try PostgresAuthStore(pool: try pool()).findUser(email: EmailAddress(lookup: email))
        else {
            throw AdminOperations.Failure.unknownUser(email: email)
        }
        return user
    }

    /// AuthCore's operations on the same ports, hasher and mail templates latchd uses.
    func operations(queuesMail: Bool = false) throws -> AdminOperations {
        let actor = try globals.requiredActor()
        let configuration = try configuration(queuesMail: queuesMail)
        let pool = try pool()
        let service = try LatchApplication.makeAuthService(configuration: configuration, pool: pool, clock: clock)
        return AdminOperations(service: service, actor: actor)
    }

    /// The access-token signing keys, with latchd's schedule (LATCH_JWKS_MAX_AGE, LATCH_ACCESS_TTL) and secret.
    func signingKeys() throws -> SigningKeys {
        LatchApplication.makeSigningKeys(configuration: try configuration(), pool: try pool(), clock: clock)
    }

    func close() {
        openPool?.close()
    }
}
