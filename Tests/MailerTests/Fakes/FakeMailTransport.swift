import Dispatch
import Foundation
@testable import Mailer
import Synchronization

/// Records every message it is asked to send; can fail a recipient's next sends and hold one send until released.
final class FakeMailTransport: MailTransport {
    /// A send held in the transport: `entered` is signalled when it starts, the send returns after `release()`.
    final class Hold: Sendable {
        let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        func release() { gate.signal() }
        func waitForRelease() { gate.wait() }
    }

    private struct State {
        var attempts: [MailMessage] = []
        var delivered: [MailMessage] = []
        var failures: [String: [MailError]] = [:]
        var hold: Hold?
    }

    private let state = Mutex(State())

    /// Every message passed to `send`, failed ones included.
    var attempts: [MailMessage] { state.withLock { $0.attempts } }
    /// The messages that were accepted.
    var delivered: [MailMessage] { state.withLock { $0.delivered } }

    /// The next `times` sends to `recipient` throw `error`.
    func fail(_ recipient: String, times: Int, with error: MailError) {
        state.withLock { $0.failures[recipient, default: []] += Array(repeating: error, count: times) }
    }

    /// The next send blocks until the returned hold is released.
    func holdNextSend() -> Hold {
        let hold = Hold()
        state.withLock { $0.hold = hold }
        return hold
    }

    func send(_ message: MailMessage) throws {
        let (hold, failure) = state.withLock { state -> (Hold?, MailError?) in
            state.attempts.append(message)
            let hold = state.hold
            state.hold = nil
            let failure = state.failures[message.to.address]?.isEmpty == false
                ? state.failures[message.to.address]?.removeFirst() : nil
            return (hold, failure)
        }
        if let hold {
            hold.entered.signal()
            hold.waitForRelease()
        }
        if let failure { throw failure }
        state.withLock { $0.delivered.append(message) }
    }
}
