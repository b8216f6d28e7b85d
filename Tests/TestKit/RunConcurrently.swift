import Foundation
import Synchronization

/// Runs `body(0)` … `body(count - 1)` on `count` dedicated threads released together, waits for all of them, and
/// returns every result (in no order). Dedicated threads, not Dispatch: a body that blocks (in libpq, on a socket)
/// would get about one Dispatch thread per core, and the calls would overlap far less than the test means.
public func runConcurrently<T: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) throws -> T
) -> [Result<T, any Error>] {
    let results = Mutex<[Result<T, any Error>]>([])
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            gate.wait()
            let result = Result { try body(index) }
            results.withLock { $0.append(result) }
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { gate.signal() }
    done.wait()
    return results.withLock { $0 }
}

/// Runs `body(0)` … `body(count - 1)` as `count` child tasks at once, and returns every result (in no order),
/// each failure with the error type `body` throws.
public func runConcurrently<T: Sendable, Failure: Error>(
    tasks count: Int, _ body: @escaping @Sendable (Int) async throws(Failure) -> T
) async -> [Result<T, Failure>] {
    await withTaskGroup(of: Result<T, Failure>.self) { group in
        for index in 0..<count {
            group.addTask {
                do throws(Failure) { return .success(try await body(index)) } catch { return .failure(error) }
            }
        }
        return await group.reduce(into: []) { $0.append($1) }
    }
}
