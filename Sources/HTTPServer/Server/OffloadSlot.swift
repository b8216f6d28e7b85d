import CMicroHTTPD
import Synchronization

/// The hand-off between a suspended connection and the pool job answering it.
///
/// Exactly one party resumes the connection: the job when it finishes, or `stop()` when
/// the drain timeout passes first. The loser's response is dropped and it never touches
/// the connection, which MHD may already have freed.
final class OffloadSlot: Sendable {
    /// An MHD connection pointer that may cross threads: MHD documents
    /// `MHD_resume_connection` as callable from any thread.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var response: HTTPResponse?
        var resumed = false
    }

    private let connection: Connection
    private let state = Mutex(State())

    init(connection: OpaquePointer) {
        self.connection = Connection(pointer: connection)
    }

    /// Stores `response` and resumes the connection, unless that already happened.
    /// Returns whether this call did it.
    @discardableResult
    func resume(with response: HTTPResponse) -> Bool {
        state.withLock { state in
            guard !state.resumed else { return false }
            state.resumed = true
            state.response = response
            // Under the lock, so a concurrent loser cannot race past the flag.
            MHD_resume_connection(connection.pointer)
            return true
        }
    }

    /// The stored response, once resumed; taken once by the access handler.
    func takeResponse() -> HTTPResponse? {
        state.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }
}
