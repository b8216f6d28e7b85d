import Foundation
import LatchClient

/// Passkeys as latchd does them, with the WebAuthn checks reduced to what shows that the client passed the bytes
/// through faithfully: the client data must be `{"type","challenge"}` of the ceremony and of the challenge handed out
/// for `challenge_id`, `id` must equal `rawId`, and an assertion's signature must be `signature(for:)` of its
/// challenge by a registered credential with the user handle the options named.
extension FakeLatchServer {
    struct PasskeyRecord {
        let id: UUID
        let credentialID: Data
        var name: String
        let createdAt: Date
        var lastUsedAt: Date?
    }

    struct PasskeyChallenge {
        let id: UUID
        /// registration, authentication, reauthentication
        let purpose: String
        let challenge: Data
        let issuedAt: Date
        var used = false
    }

    static let passkeyUserHandle = Data((0..<32).map { UInt8($0) })
    static let passkeyRPID = "auth.example.test"
    /// How long a challenge works, as latchd (the options' `timeout`).
    static let passkeyChallengeLifetime = 300

    /// What the fake accepts as the signature of an assertion over `challenge`.
    static func signature(for challenge: Data) -> Data { Data("signed:".utf8) + challenge }

    /// The client data a platform makes for `challenge` in ceremony `type` (`webauthn.create`, `webauthn.get`).
    static func clientData(type: String, challenge: Data) -> Data {
        let challengeText = challenge.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return Data(#"{"type":"\#(type)","challenge":"\#(challengeText)","origin":"https://\#(passkeyRPID)"}"#.utf8)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func bytes(_ text: Any?) -> Data? {
        guard var text = text as? String else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: text)
    }

    /// Gives the account a passkey registered long ago, with `credentialID`.
    func addPasskey(credentialID: Data, name: String = "Passkey") {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        state.withLock {
            $0.passkeys.append(PasskeyRecord(id: Self.passkeyID($0.passkeys.count + 1), credentialID: credentialID,
                                             name: name, createdAt: created))
        }
    }

    static func passkeyID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "6f1c2a4e-0000-4000-8000-%012d", 700 + number)) ?? UUID()
    }

    /// `/v1/passkeys…`.
    func passkeyRoutes(_ request: TransportRequest, _ fields: [String: Any]) async -> TransportResponse {
        let path = request.url.path
        switch (request.method, path) {
        case ("POST", "/v1/passkeys/registration/options"):
            guard request.body.map({ String(decoding: $0, as: UTF8.self) }) == "{}" else {
                return Self.error(422, "invalid_request")
            }
            return await bearer(request) { state in
                if let refusal = self.presence(password: nil, state) { return refusal }
                let challenge = self.issueChallenge(purpose: "registration")
                return self.json(200, ["challenge_id": challenge.id.uuidString.lowercased(), "publicKey": [
                    "rp": ["id": Self.passkeyRPID, "name": "Latch"],
                    "user": ["id": Self.base64URL(Self.passkeyUserHandle), "name": state.email,
                             "displayName": state.email],
                    "challenge": Self.base64URL(challenge.challenge),
                    "pubKeyCredParams": [-7, -8, -257].map { ["type": "public-key", "alg": $0] },
                    "timeout": 300_000, "attestation": "none",
                    "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true,
                                               "userVerification": "required"],
                    "excludeCredentials": state.passkeys.map {
                        ["type": "public-key", "id": Self.base64URL($0.credentialID), "transports": ["internal"]]
                    },
                ] as [String: Any]])
            }
        case ("POST", "/v1/passkeys/registration/verify"):
            let keys: Set = ["challenge_id", "credential", "name"]
            if let refusal = Self.strict(fields, allowed: keys, required: ["challenge_id", "credential"]) {
                return refusal
            }
            if let name = fields["name"] as? String, !(1...64).contains(name.count) {
                return Self.error(422, "invalid_request")
            }
            return await bearer(request) { _ in self.register(request.fields) }
        case ("POST", "/v1/passkeys/authentication/options"):
            guard request.body.map({ String(decoding: $0, as: UTF8.self) }) == "{}" else {
                return Self.error(422, "invalid_request")
            }
            guard request.headers["Authorization"] != nil else { return authenticationOptions("authentication") }
            return await bearer(request) { _ in self.authenticationOptions("reauthentication") }
        case ("POST", "/v1/passkeys/authentication/verify"):
            if let refusal = Self.strict(fields, allowed: ["challenge_id", "credential"],
                                         required: ["challenge_id", "credential"]) {
                return refusal
            }
            if let refusal = verifyAssertion(fields, purpose: "authentication") { return refusal }
            let answer = newSession(withDevice: true)
            state.withLock { $0.aal = "aal2" }
            return answer
        case ("GET", "/v1/passkeys"):
            return await bearer(request) { state in
                self.json(200, ["passkeys": state.passkeys.map(Self.passkeyObject)])
            }
        case ("PATCH", let path) where path.hasPrefix("/v1/passkeys/"):
            if let refusal = Self.strict(fields, allowed: ["name"], required: ["name"]) { return refusal }
            let id = UUID(uuidString: String(path.dropFirst("/v1/passkeys/".count)))
            let name = fields["name"] as? String ?? ""
            guard (1...64).contains(name.count) else { return Self.error(422, "invalid_request") }
            return await bearer(request) { _ in
                let renamed: PasskeyRecord? = self.state.withLock { state in
                    guard let index = state.passkeys.firstIndex(where: { $0.id == id }) else { return nil }
                    state.passkeys[index].name = name
                    return state.passkeys[index]
                }
                return renamed.map { self.json(200, Self.passkeyObject($0)) } ?? Self.error(404, "passkey_not_found")
            }
        case ("DELETE", let path) where path.hasPrefix("/v1/passkeys/"):
            guard request.body == nil else { return Self.error(422, "invalid_request") }
            let id = UUID(uuidString: String(path.dropFirst("/v1/passkeys/".count)))
            return await bearer(request) { state in
                if let refusal = self.presence(password: nil, state) { return refusal }
                guard state.passkeys.contains(where: { $0.id == id }) else {
                    return Self.error(404, "passkey_not_found")
                }
                if state.passkeys.count == 1 && state.passkeyOnly { return Self.error(409, "last_sign_in_method") }
                self.state.withLock { $0.passkeys.removeAll { $0.id == id } }
                return TransportResponse(status: 204)
            }
        default:
            return Self.error(404, "not_found")
        }
    }

    /// `{"challenge_id", "publicKey"}` of a new challenge of `purpose` (authentication or reauthentication).
    private func authenticationOptions(_ purpose: String) -> TransportResponse {
        let challenge = issueChallenge(purpose: purpose)
        return json(200, ["challenge_id": challenge.id.uuidString.lowercased(), "publicKey": [
            "challenge": Self.base64URL(challenge.challenge), "rpId": Self.passkeyRPID, "timeout": 300_000,
            "userVerification": "required", "allowCredentials": [Any](),
        ] as [String: Any]])
    }

    private func issueChallenge(purpose: String) -> PasskeyChallenge {
        let now = clock.now
        return state.withLock { state in
            let number = state.passkeyChallenges.count + 1
            let id = UUID(uuidString: String(format: "6f1c2a4e-0000-4000-8000-%012d", 500 + number)) ?? UUID()
            let challenge = PasskeyChallenge(id: id, purpose: purpose, challenge: Data((0..<32).map { UInt8(number + $0) }),
                                             issuedAt: now)
            state.passkeyChallenges.append(challenge)
            return challenge
        }
    }

    /// Spends the live, unused challenge `challenge_id` of `purpose`; nil when there is none.
    private func spendChallenge(_ fields: [String: Any], purpose: String) -> Data? {
        let now = clock.now
        let id = (fields["challenge_id"] as? String).flatMap(UUID.init(uuidString:))
        return state.withLock { state in
            guard let index = state.passkeyChallenges.firstIndex(where: { $0.id == id }) else { return nil }
            let challenge = state.passkeyChallenges[index]
            let expired = now.timeIntervalSince(challenge.issuedAt) >= TimeInterval(Self.passkeyChallengeLifetime)
            guard !challenge.used, !expired, challenge.purpose == purpose else { return nil }
            state.passkeyChallenges[index].used = true
            return challenge.challenge
        }
    }

    /// The credential's `rawId` and `response`, after checking `id`, `type` and the client data for `challenge`.
    private func credential(_ fields: [String: Any], type: String, challenge: Data)
        -> (rawID: Data, response: [String: Any])? {
        guard let credential = fields["credential"] as? [String: Any], credential["type"] as? String == "public-key",
              let rawID = Self.bytes(credential["rawId"]), credential["id"] as? String == credential["rawId"] as? String,
              let response = credential["response"] as? [String: Any],
              Self.bytes(response["clientDataJSON"]) == Self.clientData(type: type, challenge: challenge)
        else { return nil }
        return (rawID, response)
    }

    private func register(_ fields: [String: Any]) -> TransportResponse {
        guard let challenge = spendChallenge(fields, purpose: "registration") else {
            return Self.error(400, "invalid_passkey_challenge")
        }
        guard let (rawID, response) = credential(fields, type: "webauthn.create", challenge: challenge),
              Self.bytes(response["attestationObject"]) != nil
        else { return Self.error(400, "passkey_rejected") }
        let now = clock.now
        let record = state.withLock { state in
            let record = PasskeyRecord(id: Self.passkeyID(state.passkeys.count + 1), credentialID: rawID,
                                       name: fields["name"] as? String ?? "Passkey", createdAt: now)
            state.passkeys.append(record)
            return record
        }
        return json(201, Self.passkeyObject(record))
    }

    /// Checks an assertion of `fields` against a challenge of `purpose`; nil when it holds (the passkey is then
    /// marked used), else the refusal.
    func verifyAssertion(_ fields: [String: Any], purpose: String) -> TransportResponse? {
        guard let challenge = spendChallenge(fields, purpose: purpose) else {
            return Self.error(400, "invalid_passkey_challenge")
        }
        guard let (rawID, response) = credential(fields, type: "webauthn.get", challenge: challenge),
              Self.bytes(response["signature"]) == Self.signature(for: challenge),
              Self.bytes(response["userHandle"]) == Self.passkeyUserHandle
        else { return Self.error(400, "passkey_rejected") }
        let now = clock.now
        let known = state.withLock { state in
            guard let index = state.passkeys.firstIndex(where: { $0.credentialID == rawID }) else { return false }
            state.passkeys[index].lastUsedAt = now
            return true
        }
        return known ? nil : Self.error(400, "passkey_rejected")
    }

    static func passkeyObject(_ passkey: PasskeyRecord) -> [String: Any] {
        ["id": passkey.id.uuidString.lowercased(), "name": passkey.name, "created_at": iso(passkey.createdAt),
         "last_used_at": passkey.lastUsedAt.map(iso) ?? NSNull(), "backup_eligible": true, "backed_up": true,
         "transports": ["hybrid", "internal"], "aaguid": "fbfc3007-154e-4ecc-8c0b-6e020557d7bd", "algorithm": -7]
    }
}
