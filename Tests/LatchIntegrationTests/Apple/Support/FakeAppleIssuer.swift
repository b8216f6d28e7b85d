import Foundation
import LatchTestSupport
import TestKit

/// Apple's Sign in with Apple endpoints played on 127.0.0.1 by `Tests/oidc/fake_issuer.py` (PyJWT and
/// cryptography in the test venv, the one `PyJWTVerifier` uses): a JWKS, id_tokens minted and broken on demand,
/// and token and revoke endpoints that record what latchd sent. Nothing in it shares code with latchd's JWT
/// verification, so a token latchd accepts from it is one a real Apple token could be.
///
/// Each test starts its own, so that it can rotate keys, take the JWKS down and count exactly its daemon's calls.
/// The script runs until `stop()` or deinit, and exits by itself if the test process dies (it watches its stdin).
final class FakeAppleIssuer: @unchecked Sendable {
    /// The audience of minted tokens and `LATCH_APPLE_CLIENT_IDS`.
    static let clientID = "com.example.app"
    /// `iss` of minted tokens and `LATCH_APPLE_ISSUERS`: Apple's, although the keys are served from loopback.
    static let issuer = "https://appleid.apple.com"
    static let teamID = "TEAMID1234"
    static let keyID = "KEYID12345"

    enum Failure: Error, CustomStringConvertible {
        case noVenv(String)
        case didNotStart(String)
        case control(String, Int, String)

        var description: String {
            switch self {
            case .noVenv(let path): "no Python venv with PyJWT at \(path): run scripts/test-venv (scripts/test does)"
            case .didNotStart(let output): "fake_issuer.py did not start: \(output)"
            case .control(let path, let status, let body): "fake_issuer.py answered \(path) with \(status): \(body)"
            }
        }
    }

    /// How a minted token is signed.
    enum Algorithm: String, Sendable {
        case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512", ps256 = "PS256"
        /// No signature (`alg` none, empty third part).
        case none
        /// HMAC-SHA256 keyed with the signing key's public key as PEM (SubjectPublicKeyInfo): algorithm confusion.
        case hs256PEM
        /// The same keyed with the public key's DER bytes.
        case hs256DER

        var fields: [String: Any] {
            switch self {
            case .hs256PEM: ["alg": "HS256", "hmac_key": "pem"]
            case .hs256DER: ["alg": "HS256", "hmac_key": "der"]
            default: ["alg": rawValue]
            }
        }
    }

    /// A change made to the payload after signing, so the signature no longer matches.
    enum Tamper {
        /// A string gets "x" appended, a boolean is negated, a number grows by 1.
        case claim(String)
        /// These claims are set.
        case values([String: Any])

        static var subject: Tamper { .claim("sub") }

        var json: Any {
            switch self {
            case .claim(let name): name
            case .values(let values): values
            }
        }
    }

    /// What `GET /auth/keys` does while the issuer is down.
    enum Outage: String, Sendable {
        case serviceUnavailable = "503"
        /// Closes the connection without an answer.
        case dropConnection = "drop"
        /// Holds the connection unanswered until `comeUp()` (at most 60 s).
        case hang
    }

    /// A minted token and what it carries.
    struct MintedToken {
        let idToken: String
        let header: [String: Any]
        let claims: [String: Any]
        var sub: String { claims["sub"] as? String ?? "" }
        var kid: String? { header["kid"] as? String }
    }

    /// One request to `/auth/token` or `/auth/revoke`, and Apple's check of its client secret.
    struct EndpointCall: CustomStringConvertible {
        let object: [String: Any]

        /// The form fields as sent (client_id, client_secret, code, grant_type; token, token_type_hint).
        var form: [String: String] { object["form"] as? [String: String] ?? [:] }
        var contentType: String? { object["content_type"] as? String }
        /// The client secret is an ES256 JWT signed with the key of `makeP8(at:)`, aud Apple, not expired.
        var clientSecretVerified: Bool { object["client_secret_verified"] as? Bool == true }
        var clientSecretError: String? { object["client_secret_error"] as? String }
        var clientSecretHeader: [String: Any] { object["client_secret_header"] as? [String: Any] ?? [:] }
        var clientSecretClaims: [String: Any] { object["client_secret_claims"] as? [String: Any] ?? [:] }
        /// The status it was answered with; nil when the connection was dropped.
        var answeredStatus: Int? { object["answered"] as? Int }

        var description: String {
            "\(form.filter { $0.key != "client_secret" }) secret \(clientSecretVerified ? "verified" : "refused: \(clientSecretError ?? "?")")"
        }
    }

    struct Calls {
        let token: [EndpointCall]
        let revoke: [EndpointCall]
        /// Every `GET /auth/keys`, answered or not.
        let jwksFetches: Int
    }

    let port: Int
    let directory: URL
    private let lock = NSLock()
    private var process: ChildProcess?

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var jwksURL: String { baseURL + "/auth/keys" }
    var tokenURL: String { baseURL + "/auth/token" }
    var revokeURL: String { baseURL + "/auth/revoke" }

    static var script: URL { TestDatabase.packageRoot.appendingPathComponent("Tests/oidc/fake_issuer.py") }

    /// Starts the issuer on a free loopback port with one RSA key; returns once it answers.
    /// - Parameter maxAge: the JWKS's `Cache-Control: max-age`.
    init(maxAge: Int = 3600) throws {
        let python = PyJWTVerifier.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Failure.noVenv(python.path) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let errors = directory.appendingPathComponent("err")
        // Port 0 and a port file rather than freePort(): the script binds first and tells, so there is no race.
        let child = try ChildProcess(
            [python.path, Self.script.path, "--port", "0", "--state-dir", directory.path, "--max-age", String(maxAge),
             "--watch-stdin"],
            environment: ["PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1", "PATH": "/usr/bin:/bin"],
            outputPath: directory.appendingPathComponent("out").path, errorPath: errors.path)
        // Standard input stays open: the script exits when it closes, on stop() or when this process dies.
        let portFile = directory.appendingPathComponent("port")
        var bound: Int?
        _ = eventually(within: .seconds(30), every: .milliseconds(20)) {
            bound = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return bound != nil || child.status() != nil
        }
        guard let bound, child.status() == nil, DaemonProcess.waitFor(port: bound, path: "/control/keys") else {
            kill(child.pid, SIGKILL)
            let status = child.waitForExit()
            let output = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            try? FileManager.default.removeItem(at: directory)
            throw Failure.didNotStart("exit \(status): \(output)")
        }
        port = bound
        process = child
    }

    deinit {
        stop()
    }

    /// Stops the issuer (connections to its port are refused afterwards) and deletes its directory. Idempotent.
    func stop() {
        let child = lock.withLock {
            defer { process = nil }
            return process
        }
        guard let child else { return }
        child.closeInput()
        if !eventually(within: .seconds(5), every: .milliseconds(10), { child.status() != nil }) {
            kill(child.pid, SIGKILL)
        }
        _ = child.waitForExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the script wrote on standard error: a line per request, and any traceback.
    var log: String {
        String(decoding: (try? Data(contentsOf: directory.appendingPathComponent("err"))) ?? Data(), as: UTF8.self)
    }

    /// What latchd needs to use this issuer as Apple, with `privateKeyFile` as its client-secret key (see
    /// `makeP8(at:)`). latchd takes plain http for the JWKS, token and revoke URLs only on a loopback host.
    func environment(privateKeyFile: URL) -> [String: String] {
        [
            "LATCH_APPLE_CLIENT_IDS": Self.clientID,
            "LATCH_APPLE_ISSUERS": Self.issuer,
            "LATCH_APPLE_JWKS_URL": jwksURL,
            "LATCH_APPLE_TEAM_ID": Self.teamID,
            "LATCH_APPLE_KEY_ID": Self.keyID,
            "LATCH_APPLE_PRIVATE_KEY_FILE": privateKeyFile.path,
            "LATCH_APPLE_TOKEN_URL": tokenURL,
            "LATCH_APPLE_REVOKE_URL": revokeURL,
        ]
    }

    // MARK: Tokens

    /// An id_token as Apple shapes it: iss Apple, aud `clientID`, a random sub, iat and auth_time now, exp in
    /// 10 minutes, an email, email_verified true, is_private_email false; no nonce unless `claims` has one.
    /// - Parameters:
    ///   - claims: override the defaults; `NSNull()` removes a claim.
    ///   - kid: the header's kid; a key of that kid signs when the issuer ever had one (also one rotated out),
    ///     else the current key signs under a kid the JWKS does not have.
    ///   - header: extra header fields (`NSNull()` removes one).
    ///   - unknownKid: sign with a fresh key no JWKS ever served.
    func mint(
        claims: [String: Any] = [:], alg: Algorithm = .rs256, kid: String? = nil, header: [String: Any] = [:],
        tamper: Tamper? = nil, unknownKid: Bool = false
    ) throws -> String {
        try mintToken(claims: claims, alg: alg, kid: kid, header: header, tamper: tamper, unknownKid: unknownKid)
            .idToken
    }

    /// `mint`, with the header and claims the token carries (e.g. the default random sub).
    func mintToken(
        claims: [String: Any] = [:], alg: Algorithm = .rs256, kid: String? = nil, header: [String: Any] = [:],
        tamper: Tamper? = nil, unknownKid: Bool = false
    ) throws -> MintedToken {
        let answer = try control("POST", "/control/mint", Self.mintRequest(
            claims: claims, alg: alg, kid: kid, header: header, tamper: tamper, unknownKid: unknownKid))
        guard let token = answer["id_token"] as? String else { throw Failure.control("/control/mint", 200, "\(answer)") }
        return MintedToken(idToken: token, header: answer["header"] as? [String: Any] ?? [:],
                           claims: answer["claims"] as? [String: Any] ?? [:])
    }

    /// How the id_token of `/auth/token`'s answers is minted from now on (its aud is the request's client_id
    /// unless `claims` says otherwise).
    func setTokenEndpointIDToken(
        claims: [String: Any] = [:], alg: Algorithm = .rs256, kid: String? = nil, header: [String: Any] = [:],
        tamper: Tamper? = nil, unknownKid: Bool = false
    ) throws {
        try control("POST", "/control/token-claims", Self.mintRequest(
            claims: claims, alg: alg, kid: kid, header: header, tamper: tamper, unknownKid: unknownKid))
    }

    private static func mintRequest(
        claims: [String: Any], alg: Algorithm, kid: String?, header: [String: Any], tamper: Tamper?, unknownKid: Bool
    ) -> [String: Any] {
        var request = alg.fields
        request["claims"] = claims
        request["header"] = header
        request["kid"] = kid
        request["tamper"] = tamper?.json
        request["unknown_kid"] = unknownKid
        return request
    }

    // MARK: Keys

    /// Adds a new RSA key, which signs from now on; `dropOld` removes the others from the JWKS. Returns its kid.
    @discardableResult
    func rotate(dropOld: Bool = false) throws -> String {
        let answer = try control("POST", "/control/rotate", ["drop_old": dropOld])
        guard let kid = answer["kid"] as? String else { throw Failure.control("/control/rotate", 200, "\(answer)") }
        return kid
    }

    /// The kids the JWKS serves, oldest first (the last one signs), and each one's public key PEM.
    func keys() throws -> (kids: [String], pems: [String: String]) {
        let answer = try control("GET", "/control/keys")
        return (answer["kids"] as? [String] ?? [], answer["pems"] as? [String: String] ?? [:])
    }

    /// The JWKS as served, and its Cache-Control header.
    func jwks() throws -> (keys: [[String: Any]], cacheControl: String?, status: Int) {
        let client = try HTTPTestClient(port: port, timeout: .seconds(70))
        defer { client.close() }
        let response = try client.send("GET", "/auth/keys")
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (object?["keys"] as? [[String: Any]] ?? [], response.header("Cache-Control"), response.status)
    }

    func setJWKSMaxAge(_ seconds: Int) throws {
        try control("POST", "/control/max-age", ["max_age": seconds])
    }

    /// `GET /auth/keys` fails as `outage` says until `comeUp()`; the other endpoints go on answering.
    func goDown(_ outage: Outage = .serviceUnavailable) throws {
        try control("POST", "/control/down", ["mode": outage.rawValue])
    }

    func comeUp() throws {
        try control("POST", "/control/up")
    }

    // MARK: Token and revoke endpoints

    /// `/auth/token` answers `status` (nil: success again) with `body` (default `{"error": "invalid_grant"}` for
    /// 400, `invalid_client` for 401, `server_error` otherwise), for the next `times` calls or all of them.
    func setTokenStatus(_ status: Int?, body: [String: Any]? = nil, times: Int? = nil) throws {
        try setFailure("token", status: status, body: body, times: times)
    }

    /// The same for `/auth/revoke`.
    func setRevokeStatus(_ status: Int?, body: [String: Any]? = nil, times: Int? = nil) throws {
        try setFailure("revoke", status: status, body: body, times: times)
    }

    /// `/auth/token` closes the connection unanswered, for the next `times` calls or all of them.
    func dropTokenCalls(times: Int? = nil) throws {
        try setFailure("token", status: "drop", body: nil, times: times)
    }

    func dropRevokeCalls(times: Int? = nil) throws {
        try setFailure("revoke", status: "drop", body: nil, times: times)
    }

    private func setFailure(_ endpoint: String, status: Any?, body: [String: Any]?, times: Int?) throws {
        var request: [String: Any] = ["status": status ?? NSNull()]
        request["body"] = body
        request["times"] = times
        try control("POST", "/control/\(endpoint)-status", request)
    }

    /// The token and revoke calls so far, oldest first, and the number of JWKS requests.
    func calls() throws -> Calls {
        let answer = try control("GET", "/control/calls")
        let list = { (name: String) in (answer[name] as? [[String: Any]] ?? []).map(EndpointCall.init(object:)) }
        return Calls(token: list("token"), revoke: list("revoke"), jwksFetches: answer["jwks_fetches"] as? Int ?? 0)
    }

    func resetCalls() throws {
        try control("POST", "/control/reset-calls")
    }

    // MARK: Client secret key

    /// Writes a new Apple-style key (P-256, PKCS#8 PEM, mode 0600) to `url`, for `LATCH_APPLE_PRIVATE_KEY_FILE`;
    /// the issuer checks client secrets with its public key from now on. Returns that public key (PEM).
    @discardableResult
    func makeP8(at url: URL) throws -> String {
        let answer = try control("POST", "/control/make-p8", ["install": true])
        guard let privateKey = answer["private_key_pem"] as? String, let publicKey = answer["public_key_pem"] as? String
        else { throw Failure.control("/control/make-p8", 200, "\(answer)") }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(privateKey.utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw Failure.control("/control/make-p8", 200, "could not write \(url.path)") }
        return publicKey
    }

    /// Client secrets are checked with this P-256 public key (PEM) from now on.
    func setAppleKey(publicKeyPEM: String) throws {
        try control("POST", "/control/apple-key", ["pem": publicKeyPEM])
    }

    /// A client secret as Apple documents it (ES256, kid `keyID`, iss `teamID`, sub `clientID`, aud Apple),
    /// signed by PyJWT with the .p8 at `p8`: what latchd's own should look like.
    static func clientSecret(p8: URL, teamID: String = teamID, keyID: String = keyID, clientID: String = clientID)
        throws -> String
    {
        try VenvScript.run(
            "fake_issuer.py", ["--client-secret", p8.path, "--team-id", teamID, "--key-id", keyID, "--client-id", clientID],
            directory: "oidc"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Reference verification

    /// PyJWT's verdict on each token against this issuer's JWKS (RS256; iss Apple, aud `audience`): the reference
    /// for what latchd should accept. With `hmacKey`, whether an HS256 token's MAC is right under that file's bytes.
    func referenceVerdicts(_ tokens: [String], audience: String = clientID, hmacKey: URL? = nil) throws
        -> [PyJWTVerifier.Verdict]
    {
        var arguments = ["--jwks", jwksURL, "--audience", audience, "--issuer", Self.issuer]
        if let hmacKey { arguments += ["--hmac-key", hmacKey.path] }
        let output = try VenvScript.run(
            "verify_id_token.py", arguments, input: tokens.joined(separator: "\n"), directory: "oidc")
        return try VenvScript.objects(output).map(PyJWTVerifier.Verdict.init(object:))
    }

    // MARK: Control API

    @discardableResult
    private func control(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        // A fresh connection per call: HTTPTestClient is not thread-safe, and tests may call from several tasks.
        let client = try HTTPTestClient(port: port, timeout: .seconds(30))
        defer { client.close() }
        let response = if let body {
            try client.sendJSON(method, path, json: String(
                decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self))
        } else {
            try client.send(method, path)
        }
        guard response.status == 200,
              let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        else { throw Failure.control(path, response.status, response.text) }
        return object
    }
}
