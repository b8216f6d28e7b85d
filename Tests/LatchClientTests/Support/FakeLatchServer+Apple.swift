import Foundation
import LatchClient

/// Sign in with Apple as latchd does it, with Apple's token reduced to what shows the client did its part: the token
/// must be `appleIDToken(nonceClaim:)` of the lowercase hex SHA-256 of the nonce issued for `nonce_id` (as Apple signs
/// the hash the app put in its request), and the raw nonce must come back, once, within its lifetime.
extension FakeLatchServer {
    struct AppleNonceRecord {
        let id: UUID
        let nonce: String
        /// Lowercase hex SHA-256 of `nonce`, from `appleNonces`: computed by Python's hashlib, not by the client.
        let hash: String
        let issuedAt: Date
        var used = false
    }

    struct IdentityRecord {
        let id: UUID
        let email: String?
        let isPrivateEmail: Bool
        let createdAt: Date
        var lastUsedAt: Date
        /// The name the last sign-in sent, if any.
        var givenName: String?
        var familyName: String?
    }

    /// The nonces the fake hands out in turn (base64url of 32 bytes, as latchd's) with their SHA-256 in lowercase hex,
    /// from `hashlib.sha256(nonce.encode()).hexdigest()`.
    static let appleNonces: [(nonce: String, hash: String)] = [
        ("BwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSY",
         "4a3823dd1b2833570546fcd346525b01409e90b4d56d4dd58b444e5e5333e321"),
        ("Dg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0",
         "18fac76705197ac88df796ebe55bc5e610072dac6a657ddb5f14148b9b8ce7d0"),
        ("FRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ",
         "5dcf3b00110892df98656dd8c06bad5ed0920e679a0b47c554113de63a03e6ac"),
        ("HB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs",
         "36a40e6183bf376dc93b476a89fb4b31ab88e844337711f68c7c8c8d615cbec3"),
    ]
    /// How long a nonce works, as latchd (`expires_in`).
    static let appleNonceLifetime = 300

    /// The identity token Apple signs for a request whose nonce was `nonceClaim`.
    static func appleIDToken(nonceClaim: String) -> String { "eyJhbGciOiJSUzI1NiJ9.apple-nonce-\(nonceClaim).sig" }

    static func appleNonceID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "6f1c2a4e-0000-4000-8000-%012d", 800 + number)) ?? UUID()
    }

    static func identityID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "6f1c2a4e-0000-4000-8000-%012d", 900 + number)) ?? UUID()
    }

    /// Gives the account an Apple ID linked long ago.
    func linkIdentity(email: String? = "ada@privaterelay.appleid.com", isPrivateEmail: Bool = true) {
        let linked = Date(timeIntervalSince1970: 1_700_000_000)
        state.withLock {
            $0.identities.append(IdentityRecord(id: Self.identityID($0.identities.count + 1), email: email,
                                                isPrivateEmail: isPrivateEmail, createdAt: linked, lastUsedAt: linked))
        }
    }

    /// `/v1/signin/apple…` and `/v1/me/identities…`.
    func appleRoutes(_ request: TransportRequest, _ fields: [String: Any]) async -> TransportResponse {
        let path = request.url.path
        switch (request.method, path) {
        case ("POST", "/v1/signin/apple/nonce"):
            guard request.body.map({ String(decoding: $0, as: UTF8.self) }) == "{}" else {
                return Self.error(422, "invalid_request")
            }
            if state.withLock({ $0.appleOff }) { return Self.error(404, "not_found") }
            let now = clock.now
            let record = state.withLock { state in
                let number = state.appleNonces.count
                let (nonce, hash) = Self.appleNonces[number % Self.appleNonces.count]
                let record = AppleNonceRecord(id: Self.appleNonceID(number + 1), nonce: nonce, hash: hash,
                                              issuedAt: now)
                state.appleNonces.append(record)
                return record
            }
            return json(200, ["nonce_id": record.id.uuidString.lowercased(), "nonce": record.nonce,
                              "expires_in": Self.appleNonceLifetime])
        case ("POST", "/v1/signin/apple"):
            let keys: Set = ["id_token", "nonce_id", "nonce", "authorization_code", "given_name", "family_name"]
            if let refusal = Self.strict(fields, allowed: keys, required: ["id_token", "nonce_id", "nonce"]) {
                return refusal
            }
            for key in ["given_name", "family_name", "authorization_code"] {
                if let value = fields[key], (value as? String)?.isEmpty != false {
                    return Self.error(422, "invalid_request")
                }
            }
            if state.withLock({ $0.appleOff }) { return Self.error(404, "not_found") }
            guard let hash = spendAppleNonce(fields) else { return Self.error(400, "invalid_nonce") }
            guard fields["id_token"] as? String == Self.appleIDToken(nonceClaim: hash) else {
                return Self.error(401, "invalid_id_token")
            }
            let now = clock.now
            state.withLock { state in
                if state.identities.isEmpty {
                    state.identities.append(IdentityRecord(id: Self.identityID(1), email: state.email,
                                                           isPrivateEmail: false, createdAt: now, lastUsedAt: now))
                }
                state.identities[0].lastUsedAt = now
                state.identities[0].givenName = fields["given_name"] as? String
                state.identities[0].familyName = fields["family_name"] as? String
            }
            return firstFactorPassed()
        case ("GET", "/v1/me/identities"):
            return await bearer(request) { state in
                self.json(200, ["identities": state.identities.map(Self.identityObject)])
            }
        case ("DELETE", let path) where path.hasPrefix("/v1/me/identities/"):
            guard request.body == nil else { return Self.error(422, "invalid_request") }
            let id = UUID(uuidString: String(path.dropFirst("/v1/me/identities/".count)))
            return await bearer(request) { state in
                if let refusal = self.presence(password: nil, state) { return refusal }
                guard state.identities.contains(where: { $0.id == id }) else {
                    return Self.error(404, "identity_not_found")
                }
                if state.identities.count == 1 && state.identityOnly { return Self.error(409, "last_sign_in_method") }
                self.state.withLock { $0.identities.removeAll { $0.id == id } }
                return TransportResponse(status: 204)
            }
        default:
            return Self.error(404, "not_found")
        }
    }

    /// Spends the nonce of `nonce_id` when it is live, unused and `nonce` is it; its hash then, else nil. A known
    /// nonce is spent by any try, as latchd's one conditional UPDATE does.
    private func spendAppleNonce(_ fields: [String: Any]) -> String? {
        let now = clock.now
        let id = (fields["nonce_id"] as? String).flatMap(UUID.init(uuidString:))
        return state.withLock { state in
            guard let index = state.appleNonces.firstIndex(where: { $0.id == id }) else { return nil }
            let record = state.appleNonces[index]
            let expired = now.timeIntervalSince(record.issuedAt) >= TimeInterval(Self.appleNonceLifetime)
            state.appleNonces[index].used = true
            guard !record.used, !expired, fields["nonce"] as? String == record.nonce else { return nil }
            return record.hash
        }
    }

    static func identityObject(_ identity: IdentityRecord) -> [String: Any] {
        var object: [String: Any] = [
            "id": identity.id.uuidString.lowercased(), "provider": "apple", "email_verified": true,
            "is_private_email": identity.isPrivateEmail, "created_at": iso(identity.createdAt),
            "last_used_at": iso(identity.lastUsedAt),
        ]
        // Absent, not null, without an address.
        if let email = identity.email { object["email"] = email }
        return object
    }
}
