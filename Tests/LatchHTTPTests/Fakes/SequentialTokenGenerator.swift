import AuthCore
import Foundation
import Synchronization

/// Sequential base64url-safe tokens; the digest is the token's bytes behind a prefix (no crypto needed here).
final class SequentialTokenGenerator: TokenGenerator, Sendable {
    private let counter = Mutex(0)

    func makeToken() -> String {
        let next = counter.withLock { value in
            value += 1
            return value
        }
        return "tok\(next)_" + String(repeating: "x", count: 30)
    }

    func digest(_ token: String) -> Data { Data(("sha:" + token).utf8) }

    func constantTimeEquals(_ a: Data, _ b: Data) -> Bool { a == b }
}
