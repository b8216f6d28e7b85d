import AuthCore
import Foundation
import Synchronization

/// `SecondFactorSecrets` without OpenSSL, for tests of AuthCore's rules: secrets count up, a code is a keyed
/// mix of the secret and the step (six digits, different for neighbouring steps), "sealing" prefixes the row's
/// ids so a secret moved to another row does not open, recovery codes count up.
public final class FakeSecondFactorSecrets: SecondFactorSecrets, Sendable {
    private let counter = Locked(0)

    public struct WrongRow: Error {}

    public init() {}

    public func makeTOTPSecret() -> Data {
        let next = counter.increment()
        return Data((0..<20).map { UInt8(truncatingIfNeeded: $0 &+ next) })
    }

    public func totpCode(secret: Data, step: Int64) -> String {
        var value = UInt64(bitPattern: step) &* 2_654_435_761
        for byte in secret { value = (value &* 31) &+ UInt64(byte) }
        let text = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    public func seal(totpSecret secret: Data, userID: UserID, factorID: FactorID) throws -> Data {
        Data("\(userID)/\(factorID)/".utf8) + secret
    }

    public func openTOTPSecret(_ sealed: Data, userID: UserID, factorID: FactorID) throws -> Data {
        let prefix = Data("\(userID)/\(factorID)/".utf8)
        guard sealed.starts(with: prefix) else { throw WrongRow() }
        return sealed.dropFirst(prefix.count)
    }

    public func makeRecoveryCode() -> String {
        let next = counter.increment()
        let digits = String(next)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public func digest(recoveryCode: String, userID: UserID) -> Data {
        Data("\(userID):\(recoveryCode)".utf8)
    }
}

/// A counter behind a lock.
final class Locked: Sendable {
    private let value: Mutex<Int>
    init(_ initial: Int) { value = Mutex(initial) }
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
