import Foundation
import LatchTestSupport
import Testing

/// A passkey as `GET /v1/passkeys` and registration show it.
struct PasskeyJSON: Decodable, Sendable {
    let id: String
    let name: String
    let created_at: String
    let last_used_at: String?
    let backup_eligible: Bool
    let backed_up: Bool
    let transports: [String]
    let aaguid: String
    let algorithm: Int
}

struct PasskeyListJSON: Decodable, Sendable {
    let passkeys: [PasskeyJSON]
}

/// A passkey latchd accepted: its row as latchd answered, and what the software authenticator keeps to sign with.
struct RegisteredPasskey: Sendable {
    let record: PasskeyJSON
    let stored: StoredPasskey
    let registration: SoftwareRegistration
}

/// A confirmed user (password `PasskeyTesting.password`) with a session re-authenticated by the password, so
/// privileged calls (registering a passkey) are allowed.
struct PasskeyUser: Sendable {
    let email: String
    let userID: String
    /// The re-authenticated session's access token.
    let bearer: String
}

/// Passkeys over real HTTP, as an app and its user's authenticator (`SoftwareAuthenticator`) would drive them.
extension TestApp {
    /// Limits high enough that only the rule under test refuses: the tests try far more sign-ins than a person.
    static func passkeyApp(_ environment: [String: String] = [:]) throws -> TestApp {
        try TestApp.secondFactorApp(environment)
    }

    /// The RP ID latchd derives from `LATCH_LINK_BASE`, and the web origin it allows.
    static var passkeyRPID: String { URL(string: linkBase)?.host ?? "" }
    static var passkeyOrigin: String { "https://\(passkeyRPID)" }

    /// A JSON body of any values, serialized as a client would.
    static func jsonBody(_ object: [String: Any]) throws -> String { try SoftwareAuthenticator.text(object) }

    private func sendJSON(_ method: String, _ path: String, _ object: [String: Any], bearer: String?) throws
        -> HTTPTestClient.Response
    {
        let client = try client()
        defer { client.close() }
        let headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
        return try client.sendJSON(method, path, json: try Self.jsonBody(object), headers: headers)
    }

    // MARK: - The endpoints

    func passkeyRegistrationOptions(bearer: String?) throws -> HTTPTestClient.Response {
        try sendJSON("POST", "/v1/passkeys/registration/options", [:], bearer: bearer)
    }

    func verifyPasskeyRegistration(bearer: String?, challengeID: String, credential: String, name: String? = nil)
        throws -> HTTPTestClient.Response
    {
        var body: [String: Any] = [
            "challenge_id": challengeID,
            "credential": try JSONSerialization.jsonObject(with: Data(credential.utf8)),
        ]
        body["name"] = name
        return try sendJSON("POST", "/v1/passkeys/registration/verify", body, bearer: bearer)
    }

    /// Without a bearer: a sign-in challenge; with one: a re-authentication challenge for its user.
    func passkeyAuthenticationOptions(bearer: String? = nil) throws -> HTTPTestClient.Response {
        try sendJSON("POST", "/v1/passkeys/authentication/options", [:], bearer: bearer)
    }

    func verifyPasskeyAuthentication(challengeID: String, credential: String) throws -> HTTPTestClient.Response {
        try sendJSON("POST", "/v1/passkeys/authentication/verify", [
            "challenge_id": challengeID, "credential": try JSONSerialization.jsonObject(with: Data(credential.utf8)),
        ], bearer: nil)
    }

    func reauthenticate(bearer: String, challengeID: String, credential: String) throws -> HTTPTestClient.Response {
        try sendJSON("POST", "/v1/reauthenticate", [
            "challenge_id": challengeID, "credential": try JSONSerialization.jsonObject(with: Data(credential.utf8)),
        ], bearer: bearer)
    }

    func passkeys(bearer: String) throws -> [PasskeyJSON] {
        let response = try get("/v1/passkeys", headers: [("Authorization", "Bearer \(bearer)")])
        guard response.status == 200 else { throw FlowError.unexpected(response.status, "GET /v1/passkeys: \(response.text)") }
        return try response.json(PasskeyListJSON.self).passkeys
    }

    func renamePasskey(bearer: String, id: String, name: String) throws -> HTTPTestClient.Response {
        try sendJSON("PATCH", "/v1/passkeys/\(id)", ["name": name], bearer: bearer)
    }

    func deletePasskey(bearer: String, id: String) throws -> HTTPTestClient.Response {
        try send("DELETE", "/v1/passkeys/\(id)", bearer: bearer)
    }

    // MARK: - Steps the tests repeat

    /// Options that must be handed out (200 with a challenge id and a challenge).
    static func options(_ response: HTTPTestClient.Response, _ what: String) throws -> PasskeyOptions {
        guard response.status == 200, let options = PasskeyOptions(json: response.body) else {
            throw FlowError.unexpected(response.status, "\(what) options: \(response.text)")
        }
        return options
    }

    func registrationOptions(bearer: String) throws -> PasskeyOptions {
        try Self.options(try passkeyRegistrationOptions(bearer: bearer), "registration")
    }

    func signInOptions() throws -> PasskeyOptions {
        try Self.options(try passkeyAuthenticationOptions(), "sign-in")
    }

    func reauthenticationOptions(bearer: String) throws -> PasskeyOptions {
        try Self.options(try passkeyAuthenticationOptions(bearer: bearer), "re-authentication")
    }

    /// A confirmed user whose password session was re-authenticated with the password: may register passkeys.
    func passkeyUser(_ email: String) throws -> PasskeyUser {
        let confirmed = try signUpAndConfirm(email, PasskeyTesting.password)
        let signedIn = try session(email, PasskeyTesting.password)
        let proven = try reauthenticate(bearer: signedIn.access_token, password: PasskeyTesting.password)
        guard proven.status == 200 else { throw FlowError.unexpected(proven.status, "re-authentication: \(proven.text)") }
        return PasskeyUser(email: email, userID: confirmed.user.id,
                           bearer: try proven.json(ReauthenticatedJSON.self).access_token)
    }

    /// Registers a new passkey on the session of `bearer` (options, the software authenticator's `create`,
    /// verify), which must be accepted with 201. Every registration latchd accepts is then given to py_webauthn,
    /// which must accept it too.
    func registerPasskey(
        bearer: String, algorithm: Int = -7, flags: AuthenticatorFlags = .deviceBound, signCount: UInt32 = 0,
        origin: String? = nil, name: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RegisteredPasskey {
        let options = try registrationOptions(bearer: bearer)
        let registration = try SoftwareAuthenticator.create(
            options, origin: origin, algorithm: algorithm, flags: flags, signCount: signCount)
        let response = try verifyPasskeyRegistration(
            bearer: bearer, challengeID: options.challengeID, credential: registration.credential, name: name)
        guard response.status == 201 else {
            throw FlowError.unexpected(response.status, "registration (alg \(algorithm), \(flags)): \(response.text)")
        }
        try Self.expectReferenceAccepts(registration, sourceLocation: sourceLocation)
        return RegisteredPasskey(record: try response.json(PasskeyJSON.self), stored: registration.stored,
                                 registration: registration)
    }

    /// The reference check: py_webauthn must accept a registration latchd accepted.
    static func expectReferenceAccepts(_ registration: SoftwareRegistration,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let verdict = try SoftwareAuthenticator.referenceVerdict(registration)
        #expect(verdict.verified, "latchd accepted a registration py_webauthn \(verdict)", sourceLocation: sourceLocation)
    }

    /// A sign-in with `passkey`'s fresh assertion at counter `signCount`: latchd's answer.
    func passkeySignIn(_ passkey: StoredPasskey, signCount: UInt32 = 0, origin: String? = nil,
                       flags: AuthenticatorFlags? = nil) throws -> HTTPTestClient.Response {
        let options = try signInOptions()
        let assertion = try SoftwareAuthenticator.get(options, with: passkey, origin: origin, signCount: signCount,
                                                      flags: flags)
        return try verifyPasskeyAuthentication(challengeID: options.challengeID, credential: assertion)
    }

    /// A sign-in with `passkey` that must open a session.
    func signInWithPasskey(_ passkey: StoredPasskey, signCount: UInt32 = 0, origin: String? = nil) throws
        -> SessionJSON
    {
        let response = try passkeySignIn(passkey, signCount: signCount, origin: origin)
        guard response.status == 200 else {
            throw FlowError.unexpected(response.status, "passkey sign-in (\(passkey)): \(response.text)")
        }
        return try response.json(SessionJSON.self)
    }

    /// A re-authentication of the session of `bearer` with `passkey`: latchd's answer.
    func reauthenticateWithPasskey(bearer: String, _ passkey: StoredPasskey, signCount: UInt32 = 0) throws
        -> HTTPTestClient.Response
    {
        let options = try reauthenticationOptions(bearer: bearer)
        let assertion = try SoftwareAuthenticator.get(options, with: passkey, signCount: signCount)
        return try reauthenticate(bearer: bearer, challengeID: options.challengeID, credential: assertion)
    }

    // MARK: - What a refusal must leave behind: nothing

    /// What a refused ceremony must not change: sessions (all users'), refresh tokens, passkeys.
    struct PasskeyFootprint: Equatable, CustomStringConvertible {
        let sessions: Int
        let refreshTokens: Int
        let passkeys: Int
        var description: String { "sessions \(sessions), refresh tokens \(refreshTokens), passkeys \(passkeys)" }
    }

    func passkeyFootprint() throws -> PasskeyFootprint {
        PasskeyFootprint(
            sessions: try count("SELECT count(*)::int8 FROM sessions"),
            refreshTokens: try count("SELECT count(*)::int8 FROM refresh_tokens"),
            passkeys: try count("SELECT count(*)::int8 FROM passkeys"))
    }

    func auditCount(_ event: String, userID: String? = nil) throws -> Int {
        try count("SELECT count(*)::int8 FROM audit_log WHERE event = $1 AND ($2::uuid IS NULL OR user_id = $2::uuid)",
                  [event, userID])
    }

    /// The detail of the newest audit row of `event`, as JSON text ("" when none).
    func latestAuditDetail(_ event: String) throws -> String {
        try pool.query("SELECT coalesce(detail::text, '') FROM audit_log WHERE event = $1 ORDER BY id DESC LIMIT 1",
                       [event]).first?.decode(String.self, column: 0) ?? ""
    }

    /// The `reason` of the newest `passkey_failed` audit row.
    func latestPasskeyFailureReason() throws -> String? {
        try pool.query("SELECT detail->>'reason' FROM audit_log WHERE event = 'passkey_failed' ORDER BY id DESC LIMIT 1")
            .first?.decode(String?.self, column: 0)
    }

    /// Mails of `kind` (a raw outbox kind: the passkey kinds are named by the contract) to `recipient`.
    func mailCount(to recipient: String, kind: String) throws -> Int {
        try count("SELECT count(*)::int8 FROM outbox WHERE recipient = $1 AND kind = $2", [recipient, kind])
    }
}

/// What the passkey suites share.
enum PasskeyTesting {
    static let password = "correct horse battery"
    static let algorithms = [-7, -8, -257]

    /// A refusal: `status` with error `code`.
    static func expect(_ response: HTTPTestClient.Response, _ status: Int, _ code: String, _ context: String = "",
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status && ErrorJSON.code(response) == code,
                "\(context): expected \(status) \(code), got \(response.status) \(response.text)",
                sourceLocation: sourceLocation)
    }

    /// A refusal that gave away nothing: no token in the body.
    static func expectNoToken(_ response: HTTPTestClient.Response, _ context: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!response.text.contains("access_token") && !response.text.contains("refresh_token"),
                "\(context): a refusal carried a token: \(response.text)", sourceLocation: sourceLocation)
    }

    /// The top-level JSON object of a response.
    static func object(_ response: HTTPTestClient.Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    /// base64url without padding.
    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64url(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
