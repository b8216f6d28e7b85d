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

    /// A sign-in waiting for its second factor: its ticket works once, for `mfaTicketLifetime`, and not after five
    /// wrong codes.
    struct MFATicketRecord {
        let value: String
        let issuedAt: Date
        var wrongCodes = 0
        var used = false
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

    /// How long a ticket works, as latchd.
    static let mfaTicketLifetime = 300
    /// The methods the fake lists, a future one among them (the client ignores what it does not know).
    static let mfaMethods = ["totp", "webauthn", "recovery_code"]

    /// The authenticator's code the fake accepts, at any time.
    static let totpCode = "123456"
    static let factorID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-0000000000f1") ?? UUID()
    static let initialRecoveryCodes = (1...10).map { String(format: "ABCD-EFGH-JKMN-%04d", $0) }

    /// Gives the account an active authenticator and its recovery codes, as if enrolled long ago.
    func enableSecondFactor() {
        state.withLock { state in
            let enrolled = Date(timeIntervalSince1970: 1_700_000_000)
            state.factors = [
                Factor(id: Self.factorID, name: "Authenticator", createdAt: enrolled, lastUsedAt: nil, active: true),
            ]
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

// MARK: - Sign-in

extension FakeLatchServer {
    /// The answer to a right first factor: the session, or for an account with a second factor a ticket and no token.
    func firstFactorPassed() -> TransportResponse {
        guard state.withLock({ $0.hasActiveFactor }) else { return newSession(withDevice: true) }
        let now = clock.now
        let ticket = state.withLock { state in
            let ticket = MFATicketRecord(value: "mfa-ticket-\(state.mfaTickets.count + 1)", issuedAt: now)
            state.mfaTickets.append(ticket)
            return ticket.value
        }
        return json(200, ["mfa_required": true, "mfa_ticket": ticket, "methods": Self.mfaMethods,
                          "expires_in": Self.mfaTicketLifetime])
    }

    /// `POST /v1/signin/mfa`: the ticket with exactly one of `code` and `recovery_code`.
    func completeMFA(_ fields: [String: Any]) -> TransportResponse {
        let keys = Set(fields.keys)
        guard keys == ["mfa_ticket", "code"] || keys == ["mfa_ticket", "recovery_code"],
              Self.strict(fields, allowed: keys, required: keys) == nil,
              let value = fields["mfa_ticket"] as? String, let proof = SecondFactorProof(fields)
        else { return Self.error(422, "invalid_request") }
        let now = clock.now
        let live: Int? = state.withLock { state in
            guard let index = state.mfaTickets.firstIndex(where: { $0.value == value }) else { return nil }
            let ticket = state.mfaTickets[index]
            let expired = now.timeIntervalSince(ticket.issuedAt) >= TimeInterval(Self.mfaTicketLifetime)
            return ticket.used || expired || ticket.wrongCodes >= 5 ? nil : index
        }
        guard let index = live else { return Self.error(401, "invalid_mfa_ticket") }
        if let refusal = verify(proof) {
            state.withLock { $0.mfaTickets[index].wrongCodes += 1 }
            return refusal
        }
        state.withLock { $0.mfaTickets[index].used = true }
        return newSession(withDevice: true)
    }
}
