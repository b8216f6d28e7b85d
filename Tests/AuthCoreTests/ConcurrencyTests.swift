import AuthCore
import Dispatch
import Synchronization
import Testing

/// The service is shared by the HTTP server's threads: one token redeemed from many threads at once succeeds once.
@Suite struct ConcurrencyTests {
    @Test func concurrentConfirmationsOfOneTokenSucceedOnce() throws {
        let h = Harness()
        let token = try h.signUp()
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let outcome: String
            do {
                _ = try h.service.confirm(token: token, ip: nil, userAgent: nil)
                outcome = "ok"
            } catch let error as AuthError {
                outcome = error.code
            } catch {
                outcome = "other"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.filter { $0 == "ok" }.count == 1)
        #expect(all.filter { $0 == "token_used" }.count == 7)
        #expect(h.store.snapshot.sessions.count == 1)
    }
}
