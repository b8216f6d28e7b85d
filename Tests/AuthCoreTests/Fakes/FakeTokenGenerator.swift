import AuthCore
import Foundation
import Synchronization

/// Deterministic tokens `rawtoken-000001`, `rawtoken-000002`, … and a digest that does not contain the token
/// (so a scan for the raw token in stored data is meaningful).
final class FakeTokenGenerator: TokenGenerator, Sendable {
    private let made = Mutex<[String]>([])

    /// Every token made so far, in order.
    var tokens: [String] { made.withLock { $0 } }
    var lastToken: String? { tokens.last }

    func makeToken() -> String {
        made.withLock { made in
            let token = "rawtoken-" + String(format: "%06d", made.count + 1)
            made.append(token)
            return token
        }
    }

    func digest(_ token: String) -> Data {
        Data(("digest:" + String(token.reversed())).utf8)
    }

    func constantTimeEquals(_ a: Data, _ b: Data) -> Bool { a == b }
}
