import AuthCore
import AuthCoreTesting
import StoreContract
import Testing

/// The in-memory fake every AuthCore and LatchHTTP test runs on keeps the store contract that PostgreSQL keeps
/// (LatchStoreTests' `PostgresStoreContractTests`), so a test that passes on the fake says something about latchd.
@Suite("InMemoryAuthStore keeps the store contract")
struct InMemoryStoreContractTests {
    @Test(arguments: StoreContract.cases)
    func inMemoryStoreKeepsTheContract(_ contractCase: ContractCase) throws {
        try contractCase.run(InMemoryAuthStore())
    }
}
