import AuthCore
import Foundation
import Synchronization

/// Deterministic tokens `rawtoken-000001xxx…`, `rawtoken-000002xxx…` (43 base64url characters, like real ones) and a
/// digest that does not contain the token, so a scan for the raw token in stored data is meaningful.
public final class SequentialTokenGenerator: TokenGenerator, Sendable {
    private let made = Mutex<[String]>([])
    private let drawn = Mutex<Int>(0)

    public init() {}

    /// Every token made so far, in order.
    public var tokens: [String] { made.withLock { $0 } }
    public var lastToken: String? { tokens.last }

    public func makeToken() -> String {
        made.withLock { made in
            let token = ("rawtoken-" + String(format: "%06d", made.count + 1)).padding(toLength: 43, withPad: "x", startingAt: 0)
            made.append(token)
            return token
        }
    }

    /// 32 bytes counting up with each call (`00…01`, `00…02`, …), so two draws never agree.
    public func randomBytes() -> Data {
        let n = drawn.withLock { count in
            count += 1
            return count
        }
        return Data(repeating: 0, count: 24) + withUnsafeBytes(of: UInt64(n).bigEndian) { Data($0) }
    }

    public func digest(_ token: String) -> Data {
        Data(("digest:" + String(token.reversed())).utf8)
    }

    /// 32 bytes, not the input: the input reversed, each byte flipped (a test can compute it, nothing confuses
    /// the two).
    public func digest(bytes: Data) -> Data {
        Data(bytes.reversed().map { ~$0 }.prefix(32))
    }

    public func constantTimeEquals(_ a: Data, _ b: Data) -> Bool { a == b }
}
