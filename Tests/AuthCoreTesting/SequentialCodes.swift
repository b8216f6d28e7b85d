import AuthCore
import Foundation
import Synchronization

/// Deterministic codes `00000001`, `00000002`, … and a transparent digest bound to the user and purpose, as the
/// real one is.
public final class SequentialCodes: OneTimeCodes, Sendable {
    private let made = Mutex<[String]>([])

    public init() {}

    /// Every code made so far, in order.
    public var codes: [String] { made.withLock { $0 } }
    public var lastCode: String? { codes.last }

    public func makeCode() -> String {
        made.withLock { made in
            let code = String(format: "%08d", made.count + 1)
            made.append(code)
            return code
        }
    }

    public func digest(code: String, userID: UserID, purpose: TokenPurpose) -> Data {
        Data("code:\(purpose.rawValue):\(userID):\(code)".utf8)
    }

    public func digest(code: String, sessionID: SessionID) -> Data {
        Data("code:reauthenticate:\(sessionID):\(code)".utf8)
    }
}
