import Foundation
import LatchClient

/// The second factor as latchd does it: TOTP factors (one fixed right code, `totpCode`), ten single-use recovery
/// codes, and the proof by either that privileged changes of an account with a factor need.
extension FakeLatchServer {
    struct Factor {
        let id: UUID
        var name: String
        let createdAt: Date
        var lastUsedAt: Date?
        var active: Bool
    }

    /// One of the two second-factor proofs of a request body: `code` (TOTP) or `recovery_code`.
    enum SecondFactorProof {
        case code(String)
        case recoveryCode(String)

        init?(_ fields: [String: Any]) {
            if let code = fields["code"] as? String {
                self = .code(code)
            } else if let code = fields["recovery_code"] as? String {
                self = .recoveryCode(code)
            } else {
                return nil
            }
        }
    }

    /// The authenticator's code the fake accepts, at any time.
    static let totpCode = "123456"
    static let factorID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-0000000000f1") ?? UUID()
    static let initialRecoveryCodes = (1...10).map { String(format: "ABCD-EFGH-JKMN-%04d", $0) }

    /// Gives the account an active authenticator and its recovery codes, as if enrolled long ago.
    func enableSecondFactor() {
        state.withLock { state in
            state.factors = [Factor(id: Self.factorID, name: "Authenticator",
                                    createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastUsedAt: nil, active: true)]
            state.recoveryCodes = Self.initialRecoveryCodes
        }
    }

    /// Checks a second-factor proof of the account: nil when right (a recovery code is spent), else the refusal.
    func verify(_ proof: SecondFactorProof) -> TransportResponse? {
        let now = clock.now
        return state.withLock { state in
            guard let index = state.factors.firstIndex(where: \.active) else {
                return Self.error(409, "mfa_not_enabled")
            }
            switch proof {
            case .code(let code):
                guard code == Self.totpCode else { return Self.error(400, "invalid_mfa_code") }
                state.factors[index].lastUsedAt = now
            case .recoveryCode(let code):
                guard let used = state.recoveryCodes.firstIndex(of: code) else {
                    return Self.error(400, "invalid_mfa_code")
                }
                state.recoveryCodes.remove(at: used)
            }
            return nil
        }
    }
}
