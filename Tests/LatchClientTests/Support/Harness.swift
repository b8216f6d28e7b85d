import Foundation
import LatchClient
import TestKit

/// A client wired to a `FakeLatchServer` and a test clock, signed in as generation 1 unless told otherwise.
struct Harness {
    static let baseURL = URL(string: "https://auth.example.test") ?? URL(fileURLWithPath: "/")

    let clock = TestClock()
    let server: FakeLatchServer
    let store: InMemorySessionStore
    let client: LatchClient

    /// - Parameters:
    ///   - accessLifetime: seconds the stored access token has left by the client's clock.
    ///   - preferredLanguages: the device's languages; none by default, so no request carries `Accept-Language`
    ///     whatever the machine running the tests prefers.
    init(signedIn: Bool = true, accessLifetime: TimeInterval = 900, deviceToken: String? = nil,
         preferredLanguages: [String] = []) {
        server = FakeLatchServer(clock: clock)
        store = InMemorySessionStore(
            session: signedIn ? server.session(1, accessLifetime: accessLifetime) : nil, deviceToken: deviceToken)
        client = LatchClient(baseURL: Self.baseURL, store: store, transport: server,
                             preferredLanguages: preferredLanguages, refreshLeeway: 60, now: clock.function)
    }

    /// Runs `count` calls of `call` at once; returns each one's result.
    func concurrently<T: Sendable>(
        _ count: Int, _ call: @escaping @Sendable (LatchClient) async throws(LatchError) -> T
    ) async -> [Result<T, LatchError>] {
        let client = client
        return await runConcurrently(tasks: count) { (_: Int) async throws(LatchError) -> T in try await call(client) }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
