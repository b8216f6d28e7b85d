import AuthCore
import LatchStore
import LatchTestSupport
import StoreContract
import Testing

/// PostgresAuthStore keeps the store contract, case by case, each on a fresh migrated database; the in-memory
/// fake runs the same cases in AuthCoreTests.
@Suite("PostgresAuthStore keeps the store contract")
struct PostgresStoreContractTests {
    @Test(arguments: StoreContract.cases)
    func postgresStoreKeepsTheContract(_ contractCase: ContractCase) throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        try contractCase.run(PostgresAuthStore(pool: pool))
    }
}
