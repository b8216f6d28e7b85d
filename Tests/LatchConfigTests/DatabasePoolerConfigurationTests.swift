import Testing
@testable import LatchConfig

/// `LATCH_DATABASE_POOLER`, `?pgbouncer=true` and `LATCH_DATABASE_LISTEN_URL`: how latchd learns that a
/// transaction pooler sits in front of PostgreSQL, and that libpq never sees the parameter it would refuse.
@Suite struct DatabasePoolerConfigurationTests {
    let base = ConfigurationLoaderTests()

    @Test func noPoolerAndNoListenURLByDefault() throws {
        let config = try base.load()
        #expect(config.databasePooler == .none)
        #expect(config.databaseListenURL == nil)
        #expect(config.databaseURL == "postgresql://latch@127.0.0.1:5432/latch")
    }

    @Test(arguments: [("none", LatchConfiguration.DatabasePooler.none), ("transaction", .transaction),
                      ("Transaction", .transaction)])
    func theVariableSelectsTheMode(text: String, mode: LatchConfiguration.DatabasePooler) throws {
        #expect(try base.load(["LATCH_DATABASE_POOLER": text]).databasePooler == mode)
        #expect(try base.load([:], arguments: ["--database-pooler", text]).databasePooler == mode)
    }

    @Test func pgbouncerTrueSelectsTransactionModeAndIsStripped() throws {
        let config = try base.load(["DATABASE_URL": "postgresql://latch@127.0.0.1:6432/latch?pgbouncer=true"])
        #expect(config.databasePooler == .transaction)
        #expect(config.databaseURL == "postgresql://latch@127.0.0.1:6432/latch")
    }

    @Test func otherParametersAreKeptInTheirOrder() throws {
        let url = "postgresql://latch:pw@pool:6432/latch?sslmode=require&pgbouncer=true&connect_timeout=5"
        let config = try base.load(["DATABASE_URL": url])
        #expect(config.databaseURL == "postgresql://latch:pw@pool:6432/latch?sslmode=require&connect_timeout=5")
        #expect(config.databasePooler == .transaction)
        let socket = try base.load(["DATABASE_URL": "postgresql://latch@/latch?pgbouncer=TRUE&host=/run/pgbouncer"])
        #expect(socket.databaseURL == "postgresql://latch@/latch?host=/run/pgbouncer")
    }

    @Test func pgbouncerFalseIsStrippedAndSelectsNothing() throws {
        let config = try base.load(["DATABASE_URL": "postgresql://latch@db/latch?pgbouncer=false&sslmode=disable"])
        #expect(config.databasePooler == .none)
        #expect(config.databaseURL == "postgresql://latch@db/latch?sslmode=disable")
    }

    @Test func theVariableAndTheURLMayAgree() throws {
        let config = try base.load([
            "DATABASE_URL": "postgresql://latch@db/latch?pgbouncer=true", "LATCH_DATABASE_POOLER": "transaction",
        ])
        #expect(config.databasePooler == .transaction)
    }

    @Test func invalidValuesAreNamed() {
        #expect(throws: ConfigurationError(
            variable: "LATCH_DATABASE_POOLER", problem: "must be none or transaction, not session"
        )) { try base.load(["LATCH_DATABASE_POOLER": "session"]) }
        #expect(throws: ConfigurationError(variable: "DATABASE_URL", problem: "pgbouncer= must be true or false, not 1")) {
            try base.load(["DATABASE_URL": "postgresql://latch@db/latch?pgbouncer=1"])
        }
        #expect(throws: ConfigurationError(
            variable: "LATCH_DATABASE_POOLER", problem: "is none but DATABASE_URL says pgbouncer=true"
        )) { try base.load(["DATABASE_URL": "postgresql://latch@db/latch?pgbouncer=true", "LATCH_DATABASE_POOLER": "none"]) }
    }

    @Test func theListenURLIsADirectPostgreSQLURL() throws {
        let direct = "postgresql://latch@db:5432/latch?sslmode=require"
        let config = try base.load([
            "DATABASE_URL": "postgresql://latch@pool:6432/latch?pgbouncer=true", "LATCH_DATABASE_LISTEN_URL": direct,
        ])
        #expect(config.databaseListenURL == direct)
        #expect(base.problemVariable(["LATCH_DATABASE_LISTEN_URL": "mysql://db/latch"]) == "LATCH_DATABASE_LISTEN_URL")
        #expect(throws: ConfigurationError(
            variable: "LATCH_DATABASE_LISTEN_URL",
            problem: "must be a direct connection to PostgreSQL, not one through PgBouncer"
        )) { try base.load(["LATCH_DATABASE_LISTEN_URL": "postgresql://latch@pool:6432/latch?pgbouncer=true"]) }
    }
}
