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
        let answer = newSession(withDevice: true)
        state.withLock { $0.aal = "aal2" }
        return answer
    }
}

// MARK: - Management

extension FakeLatchServer {
    /// The secret every enrolment gets: 32 characters of base32.
    static let totpSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    static let enrolmentLifetime = 600

    /// The recovery codes of the `number`th activation or regeneration.
    static func recoveryCodes(batch number: Int) -> [String] {
        (1...10).map { String(format: "NEWC-%04d-JKMN-%04d", number, $0) }
    }

    /// `GET /v1/mfa`, `POST /v1/mfa/totp`, `POST /v1/mfa/totp/{id}/activate`, `POST /v1/mfa/recovery-codes`,
    /// `DELETE /v1/mfa/totp/{id}`.
    func mfaManagement(_ request: TransportRequest, _ fields: [String: Any]) async -> TransportResponse {
        // After /v1/mfa: "", "totp", "totp <id> activate", "recovery-codes", "totp <id>".
        let rest = request.url.path.split(separator: "/").dropFirst(2)
        let id = rest.count >= 2 ? UUID(uuidString: String(rest[rest.startIndex + 1])) : nil
        let route = rest.count >= 2 ? "\(rest.first ?? "") {id} \(rest.dropFirst(2).joined(separator: " "))"
            : rest.joined(separator: " ")
        switch (request.method, route.trimmingCharacters(in: .whitespaces)) {
        case ("GET", ""):
            return await bearer(request) { state in
                self.json(200, ["factors": state.factors.filter(\.active).map(Self.factorObject),
                                "recovery_codes_remaining": state.recoveryCodes.count])
            }
        case ("POST", "totp"):
            if let refusal = Self.strict(fields, allowed: ["name"], required: []) { return refusal }
            if let name = fields["name"] as? String, !(1...64).contains(name.count) {
                return Self.error(422, "invalid_request")
            }
            let name = fields["name"] as? String ?? "Authenticator"
            return await bearer(request) { state in
                self.presence(password: nil, state) ?? self.enrol(name: name)
            }
        case ("POST", "totp {id} activate"):
            if let refusal = Self.strict(fields, allowed: ["code"], required: ["code"]) { return refusal }
            let code = fields["code"] as? String
            return await bearer(request) { _ in self.activate(id, code: code) }
        case ("POST", "recovery-codes"):
            guard request.body.map({ String(decoding: $0, as: UTF8.self) }) == "{}" else {
                return Self.error(422, "invalid_request")
            }
            return await bearer(request) { state in
                if let refusal = self.presence(password: nil, state) { return refusal }
                guard state.hasActiveFactor else { return Self.error(409, "mfa_not_enabled") }
                let codes = self.state.withLock { state in
                    state.recoveryCodeBatches += 1
                    state.recoveryCodes = Self.recoveryCodes(batch: state.recoveryCodeBatches)
                    return state.recoveryCodes
                }
                return self.json(200, ["recovery_codes": codes])
            }
        case ("DELETE", "totp {id}"):
            guard request.body == nil else { return Self.error(422, "invalid_request") }
            return await bearer(request) { state in
                if let refusal = self.presence(password: nil, state) { return refusal }
                let removed = self.state.withLock { state in
                    guard let index = state.factors.firstIndex(where: { $0.active && $0.id == id }) else {
                        return false
                    }
                    state.factors.remove(at: index)
                    if !state.hasActiveFactor { state.recoveryCodes = [] }
                    return true
                }
                return removed ? TransportResponse(status: 204) : Self.error(404, "factor_not_found")
            }
        default:
            return Self.error(404, "not_found")
        }
    }

    /// A pending factor in place of the pending one.
    private func enrol(name: String) -> TransportResponse {
        let now = clock.now
        let id = state.withLock { state in
            state.factors.removeAll { !$0.active }
            state.enrolments += 1
            let id = UUID(uuidString: String(format: "6f1c2a4e-0000-4000-8000-%012d", 900 + state.enrolments)) ?? UUID()
            state.factors.append(Factor(id: id, name: name, createdAt: now, lastUsedAt: nil, active: false))
            return id
        }
        let uri = "otpauth://totp/Latch:ada%40example.com?secret=\(Self.totpSecret)&issuer=Latch&algorithm=SHA1"
            + "&digits=6&period=30"
        return json(201, ["factor_id": id.uuidString.lowercased(), "secret": Self.totpSecret, "otpauth_uri": uri,
                          "expires_in": Self.enrolmentLifetime])
    }

    /// Activates the pending factor `id` with `code`: its recovery codes, and a new access token of this session.
    private func activate(_ id: UUID?, code: String?) -> TransportResponse {
        let now = clock.now
        let answer: (codes: [String], token: String)? = state.withLock { state in
            guard let index = state.factors.firstIndex(where: { !$0.active && $0.id == id }),
                  now.timeIntervalSince(state.factors[index].createdAt) < TimeInterval(Self.enrolmentLifetime)
            else { return nil }
            guard code == Self.totpCode else { return ([], "") }
            state.factors[index].active = true
            state.recoveryCodeBatches += 1
            state.recoveryCodes = Self.recoveryCodes(batch: state.recoveryCodeBatches)
            state.reauthenticatedAccessToken = "access-\(state.generation)-aal2"
            state.aal = "aal2"
            return (state.recoveryCodes, state.accessToken)
        }
        guard let answer else { return Self.error(404, "factor_not_found") }
        guard !answer.codes.isEmpty else { return Self.error(400, "invalid_mfa_code") }
        return json(200, ["recovery_codes": answer.codes, "access_token": answer.token,
                          "access_token_expires_at": Self.iso(now + 900)])
    }

    static func factorObject(_ factor: Factor) -> [String: Any] {
        ["id": factor.id.uuidString.lowercased(), "type": "totp", "name": factor.name,
         "created_at": iso(factor.createdAt), "last_used_at": factor.lastUsedAt.map(iso) ?? NSNull()]
    }
}
