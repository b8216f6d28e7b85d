import Foundation
import LatchClient
import Synchronization

/// A scripted Latch server behind the client's `HTTPTransport`, with the session rules that make refresh races
/// visible: tokens are numbered by generation (`access-2`, `refresh-2`); a refresh spends its token and issues
/// the next generation, which also ends the older access tokens; a spent refresh token presented again revokes
/// the family (`refresh_token_reused`), exactly as latchd does. A client that refreshed twice with one token is
/// signed out by it, so a test cannot pass by accident.
final class FakeLatchServer: HTTPTransport, Sendable {
    struct State {
        var generation = 1
        /// The family was revoked or signed out: every token of it is refused.
        var revoked = false
        /// The current access token has expired at the server (whatever the client's clock says).
        var accessExpired = false
        /// The key the current access token is signed with was revoked: it is refused as `invalid_token` until a
        /// refresh issues one signed with the new key.
        var signingKeyRevoked = false
        var spentRefreshTokens: Set<String> = []
        var requests: [TransportRequest] = []
        /// Answers that replace the model's, by path (e.g. a 429 for /v1/signin).
        var scripted: [String: TransportResponse] = [:]
        var email = "ada@example.com"
        /// The user's language; nil: the server is older than languages and its user objects have no `locale`.
        var locale: String? = "en"
        var deviceToken = "device-1"
        /// The access token a re-authentication issued in place of `access-<generation>`; a refresh or a new
        /// session replaces it.
        var reauthenticatedAccessToken: String?
        /// Until when the session may make privileged changes without the password; a refresh keeps it.
        var reauthenticatedUntil: Date?
        /// The code `POST /v1/reauthenticate/email` mailed last, until it is used.
        var reauthenticationCode: String?
        var reauthentications = 0
        /// Sign-in mails (FakeLatchServer+EmailSignIn.swift).
        var signInMails: [SignInMail] = []
        /// The user's authenticator factors, active or pending (FakeLatchServer+MFA.swift).
        var factors: [Factor] = []
        /// The recovery codes not used yet.
        var recoveryCodes: [String] = []
        /// How many times recovery codes were made (activations and regenerations).
        var recoveryCodeBatches = 0
        /// How many enrolments were started: each gets a factor ID of its own.
        var enrolments = 0
        /// The current session's assurance level, as the sessions list says it.
        var aal = "aal1"
        /// Until when the session may make privileged changes of an account with a second factor: a
        /// re-authentication by code or recovery code; a refresh keeps it.
        var secondFactorUntil: Date?

        /// The tickets of sign-ins waiting for their second factor, oldest first.
        var mfaTickets: [MFATicketRecord] = []

        /// The user's passkeys and the challenges handed out (FakeLatchServer+Passkeys.swift).
        var passkeys: [PasskeyRecord] = []
        var passkeyChallenges: [PasskeyChallenge] = []
        /// The account has no password and sign-in by mail is off: its last passkey is its only way in.
        var passkeyOnly = false

        /// Sign in with Apple's nonces handed out and the user's linked identities (FakeLatchServer+Apple.swift).
        var appleNonces: [AppleNonceRecord] = []
        var identities: [IdentityRecord] = []
        /// The server has Sign in with Apple off: its endpoints answer `not_found`.
        var appleOff = false
        /// The account's only way in is its last linked identity.
        var identityOnly = false

        /// Whether the account has a second factor, so privileged changes need its proof.
        var hasActiveFactor: Bool { factors.contains { $0.active } }

        /// The one access token of the session the server accepts now.
        var accessToken: String { reauthenticatedAccessToken ?? "access-\(generation)" }
    }

    static let userID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-00000000abcd") ?? UUID()
    static let currentSessionID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-000000000001") ?? UUID()
    static let otherSessionID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-000000000002") ?? UUID()
    /// The languages the server has templates for: `PATCH /v1/me` accepts these only.
    static let locales: Set = ["en", "de", "fr"]
    /// The password the account-management calls accept.
    static let password = "correct horse battery staple"
    /// What `POST /v1/reauthenticate/email` mails.
    static let reauthenticationCode = "24681357"
    /// How long a re-authentication lets privileged changes go without the password, as latchd's default.
    static let privilegedMaxAge = 600
    static let reauthenticationChallenge = #"Bearer error="insufficient_user_authentication", max_age=600"#
    static let secondFactorChallenge =
        #"Bearer error="insufficient_user_authentication", acr_values="aal2", max_age=600"#

    let state = Mutex(State())
    let clock: TestClock
    /// Refresh requests wait here before they are answered.
    let refreshGate = Gate(open: true)
    /// Bearer requests that will be refused (stale or expired token) wait here before they are answered.
    let refusalGate = Gate(open: true)
    /// Re-authentications wait here after the server recorded them, before the answer goes out.
    let reauthenticationGate = Gate(open: true)
    /// Redemptions of sign-in mails wait here before they are answered.
    let emailSignInGate = Gate(open: true)
    /// Second steps of sign-ins (`POST /v1/signin/mfa`) wait here after the server answered them, before the answer
    /// goes out.
    let mfaSignInGate = Gate(open: true)

    init(clock: TestClock) {
        self.clock = clock
    }

    // MARK: - What the test reads

    func count(_ path: String) -> Int { state.withLock { $0.requests.filter { $0.url.path == path }.count } }
    func requests(_ path: String) -> [TransportRequest] {
        state.withLock { $0.requests.filter { $0.url.path == path } }
    }
    var allRequests: [TransportRequest] { state.withLock { $0.requests } }
    var generation: Int { state.withLock { $0.generation } }

    /// The server's session of `generation` as the client would receive it.
    func session(_ generation: Int, accessLifetime: TimeInterval = 900) -> Session {
        Session(
            accessToken: "access-\(generation)", refreshToken: "refresh-\(generation)",
            accessTokenExpiresAt: clock.now + accessLifetime, refreshTokenExpiresAt: clock.now + 30 * 86_400,
            user: user(email: state.withLock { $0.email }))
    }

    func user(email: String) -> User {
        User(id: Self.userID, email: email, confirmedAt: Date(timeIntervalSince1970: 1_700_000_000),
             createdAt: Date(timeIntervalSince1970: 1_700_000_000), locale: state.withLock { $0.locale })
    }

    // MARK: - HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let scripted = state.withLock { state in
            state.requests.append(request)
            return state.scripted[request.url.path]
        }
        if let scripted { return scripted }
        let fields = (request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:]
        switch (request.method, request.url.path) {
        case ("POST", "/v1/signup"):
            let keys: Set = ["email", "password", "locale"]
            if let refusal = Self.strict(fields, allowed: keys, required: ["email", "password"]) { return refusal }
            return Self.json(202, ["status": "confirmation_sent"])
        case ("POST", "/v1/confirm/resend"), ("POST", "/v1/password/forgot"): return TransportResponse(status: 202)
        case ("POST", "/v1/signin"): return firstFactorPassed()
        case ("POST", "/v1/signin/mfa"):
            let answer = completeMFA(fields)
            await mfaSignInGate.pass()
            return answer
        case ("POST", "/v1/signin/email"): return requestEmailSignIn(fields)
        case ("POST", "/v1/signin/email/verify"):
            await emailSignInGate.pass()
            return verifyEmailSignIn(fields)
        case ("POST", "/v1/confirm"):
            return fields["token"] as? String == "confirm-token" ? newSession(withDevice: false)
                : Self.error(400, "invalid_token")
        case ("POST", "/v1/invite/accept"):
            if let refusal = Self.strict(fields, allowed: ["token", "email", "code", "password"], required: ["password"]) {
                return refusal
            }
            if (fields["password"] as? String)?.count ?? 0 < 8 { return Self.error(422, "weak_password") }
            switch fields["token"] as? String ?? fields["code"] as? String {
            case "invite-token", "12345678": return newSession(withDevice: false)
            case "used-token": return Self.error(409, "token_used")
            default: return Self.error(400, "invalid_token")
            }
        case ("POST", "/v1/token/refresh"):
            await refreshGate.pass()
            return refresh(fields["refresh_token"] as? String ?? "")
        case ("GET", "/v1/me"):
            return await bearer(request) { self.json(200, self.userObject($0.email)) }
        case ("PATCH", "/v1/me"):
            if let refusal = Self.strict(fields, allowed: ["locale"], required: ["locale"]) { return refusal }
            guard let locale = fields["locale"] as? String, (1...35).contains(locale.count) else {
                return Self.error(422, "invalid_request")
            }
            return await bearer(request) { state in
                guard Self.locales.contains(locale) else { return Self.error(422, "unsupported_locale") }
                let email = self.state.withLock { state in
                    state.locale = locale
                    return state.email
                }
                return self.json(200, self.userObject(email))
            }
        case ("POST", "/v1/signout"):
            let endsThisSession = fields["scope"] as? String != "others"
            return await bearer(request) { _ in
                if endsThisSession { self.state.withLock { $0.revoked = true } }
                return TransportResponse(status: 204)
            }
        case ("POST", "/v1/password/change"):
            let keys: Set = ["current_password", "new_password"]
            if let refusal = Self.strict(fields, allowed: keys, required: ["new_password"]) { return refusal }
            let current = fields["current_password"] as? String
            return await bearer(request) { state in
                self.presence(password: current, state) ?? self.json(200, ["status": "password_changed"])
            }
        case ("POST", "/v1/email/change"):
            if let refusal = Self.strict(fields, allowed: ["new_email", "password"], required: ["new_email"]) {
                return refusal
            }
            let password = fields["password"] as? String
            return await bearer(request) { state in
                self.presence(password: password, state) ?? self.json(202, ["status": "confirmation_sent"])
            }
        case ("POST", "/v1/reauthenticate"):
            let keys: Set = ["password", "email_code", "code", "recovery_code", "challenge_id", "credential"]
            if let refusal = Self.strict(fields, allowed: keys, required: []) { return refusal }
            let passkey = fields["challenge_id"] != nil || fields["credential"] != nil
            guard passkey ? Set(fields.keys) == ["challenge_id", "credential"] : fields.count == 1 else {
                return Self.error(422, "invalid_request")
            }
            if passkey {
                let answer = await bearer(request) { _ in
                    self.verifyAssertion(request.fields, purpose: "reauthentication") ?? self.reauthenticate(secondFactor: true)
                }
                if answer.isSuccess { await reauthenticationGate.pass() }
                return answer
            }
            let password = fields["password"] as? String
            let code = fields["email_code"] as? String
            let secondFactor = SecondFactorProof(fields)
            let answer = await bearer(request) { state in
                if let password, password != Self.password { return Self.error(401, "invalid_credentials") }
                if let code, code != state.reauthenticationCode { return Self.error(400, "invalid_code") }
                if let secondFactor {
                    if let refusal = self.verify(secondFactor) { return refusal }
                    return self.reauthenticate(secondFactor: true)
                }
                return self.reauthenticate()
            }
            if answer.isSuccess { await reauthenticationGate.pass() }
            return answer
        case ("POST", "/v1/reauthenticate/email"):
            guard request.body == nil else { return Self.error(422, "invalid_request") }
            return await bearer(request) { _ in
                self.state.withLock { $0.reauthenticationCode = Self.reauthenticationCode }
                return self.json(202, ["status": "code_sent"])
            }
        case ("POST", "/v1/email/change/confirm"):
            switch fields["token"] as? String ?? fields["code"] as? String {
            case "change-token", "12345678":
                let email = state.withLock { state in
                    state.email = "ada.new@example.com"
                    return state.email
                }
                return json(200, userObject(email))
            case "taken-token": return Self.error(409, "email_taken")
            default: return Self.error(400, "invalid_token")
            }
        case ("GET", "/v1/sessions"):
            return await bearer(request) { state in
                var this = self.sessionListEntry(Self.currentSessionID, current: true)
                this["aal"] = state.aal
                // The other entry is as an older server lists it, without `aal`.
                return self.json(200, ["sessions": [this, self.sessionListEntry(Self.otherSessionID, current: false)]])
            }
        case ("DELETE", let path) where path.hasPrefix("/v1/sessions/"):
            let id = UUID(uuidString: String(path.dropFirst("/v1/sessions/".count)))
            return await bearer(request) { _ in
                switch id {
                case Self.currentSessionID:
                    self.state.withLock { $0.revoked = true }
                    return TransportResponse(status: 204)
                case Self.otherSessionID: return TransportResponse(status: 204)
                default: return Self.error(404, "session_not_found")
                }
            }
        case (_, let path) where path.hasPrefix("/v1/passkeys"):
            return await passkeyRoutes(request, fields)
        case (_, let path) where path.hasPrefix("/v1/mfa"):
            return await mfaManagement(request, fields)
        case (_, let path) where path.hasPrefix("/v1/signin/apple") || path.hasPrefix("/v1/me/identities"):
            return await appleRoutes(request, fields)
        case ("DELETE", "/v1/me"):
            if let refusal = Self.strict(fields, allowed: ["password"], required: []) { return refusal }
            let password = fields["password"] as? String
            return await bearer(request) { state in
                if let refusal = self.presence(password: password, state) { return refusal }
                self.state.withLock { $0.revoked = true }
                return TransportResponse(status: 204)
            }
        default: return Self.error(404, "not_found")
        }
    }

    func newSession(withDevice: Bool) -> TransportResponse {
        let generation = state.withLock { state in
            state.generation += 1
            state.revoked = false
            state.accessExpired = false
            state.reauthenticatedAccessToken = nil
            state.reauthenticatedUntil = nil
            state.secondFactorUntil = nil
            state.reauthenticationCode = nil
            state.aal = "aal1"
            return state.generation
        }
        var object = sessionObject(generation)
        if withDevice { object["device_token"] = state.withLock { $0.deviceToken } }
        return json(200, object)
    }

    private func refresh(_ token: String) -> TransportResponse {
        let outcome: Int? = state.withLock { state in
            guard !state.revoked else { return nil }
            if token == "refresh-\(state.generation)" {
                state.spentRefreshTokens.insert(token)
                state.generation += 1
                state.accessExpired = false
                state.signingKeyRevoked = false
                state.reauthenticatedAccessToken = nil
                return state.generation
            }
            if state.spentRefreshTokens.contains(token) { state.revoked = true; return -1 }
            return nil
        }
        switch outcome {
        case .some(-1): return Self.error(401, "refresh_token_reused")
        case .some(let generation): return json(200, sessionObject(generation))
        case nil: return Self.error(401, "invalid_session")
        }
    }

    /// Answers a bearer request: `invalid_session` for a token of an older generation or a revoked family,
    /// `invalid_token` for the current one while its signing key is revoked, `session_expired` for it once
    /// expired, else `answer`.
    func bearer(_ request: TransportRequest, _ answer: @Sendable (State) -> TransportResponse) async
        -> TransportResponse {
        let token = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        func refusal(_ state: State) -> String? {
            if state.revoked || token != state.accessToken { return "invalid_session" }
            if state.signingKeyRevoked { return "invalid_token" }
            return state.accessExpired ? "session_expired" : nil
        }
        if state.withLock({ refusal($0) }) != nil { await refusalGate.pass() }
        let (code, current) = state.withLock { (refusal($0), $0) }
        if let code { return Self.error(401, code) }
        return answer(current)
    }

    /// Records a re-authentication: a new access token of the same session (the refresh token stays), which
    /// alone carries it, and privileged changes without the password for `privilegedMaxAge`; by a second factor
    /// (`secondFactor`), those of an account with one too.
    func reauthenticate(secondFactor: Bool = false) -> TransportResponse {
        let now = clock.now
        let token = state.withLock { state in
            state.reauthentications += 1
            state.reauthenticatedAccessToken = "access-\(state.generation)-reauthenticated-\(state.reauthentications)"
            state.reauthenticatedUntil = now + TimeInterval(Self.privilegedMaxAge)
            if secondFactor { state.secondFactorUntil = now + TimeInterval(Self.privilegedMaxAge) }
            state.reauthenticationCode = nil
            state.accessExpired = false
            return state.accessToken
        }
        return json(200, [
            "access_token": token, "access_token_expires_at": Self.iso(now + 900),
            "reauthenticated_until": Self.iso(now + TimeInterval(Self.privilegedMaxAge)),
        ])
    }

    /// Proof of presence for a privileged change: the password when sent (a wrong one is `invalid_credentials`),
    /// else a re-authentication within `privilegedMaxAge`; nil when it holds. An account with a second factor needs
    /// a re-authentication by it, whatever else was sent (and a password sent is still checked), as latchd.
    func presence(password: String?, _ state: State) -> TransportResponse? {
        if state.hasActiveFactor {
            guard let until = state.secondFactorUntil, until > clock.now else {
                return Self.error(401, "reauthentication_required", challenge: Self.secondFactorChallenge)
            }
        }
        if let password { return password == Self.password ? nil : Self.error(401, "invalid_credentials") }
        if let until = state.reauthenticatedUntil, until > clock.now { return nil }
        return Self.error(401, "reauthentication_required", challenge: Self.reauthenticationChallenge)
    }

    /// latchd's strict bodies: only the endpoint's keys, none null, the required ones present; else 422.
    static func strict(_ fields: [String: Any], allowed: Set<String>, required: Set<String>) -> TransportResponse? {
        let keys = Set(fields.keys)
        guard keys.isSubset(of: allowed), required.isSubset(of: keys), !fields.values.contains(where: { $0 is NSNull })
        else { return error(422, "invalid_request") }
        return nil
    }

    // MARK: - JSON

    private func sessionObject(_ generation: Int) -> [String: Any] {
        let session = session(generation)
        return [
            "access_token": session.accessToken, "refresh_token": session.refreshToken, "token_type": "bearer",
            "access_token_expires_at": Self.iso(session.accessTokenExpiresAt),
            "refresh_token_expires_at": Self.iso(session.refreshTokenExpiresAt),
            "user": userObject(session.user.email),
        ]
    }

    private func sessionListEntry(_ id: UUID, current: Bool) -> [String: Any] {
        ["id": id.uuidString.lowercased(), "created_at": "2023-11-14T22:13:20Z", "last_used_at": "2023-11-15T08:00:00Z",
         "user_agent": current ? "ThisApp/1.0" : NSNull(), "ip": "203.0.113.7", "current": current]
    }

    private func userObject(_ email: String) -> [String: Any] {
        var object: [String: Any] = [
            "id": Self.userID.uuidString.lowercased(), "email": email, "confirmed_at": "2023-11-14T22:13:20Z",
            "created_at": "2023-11-14T22:13:20Z",
        ]
        if let locale = state.withLock({ $0.locale }) { object["locale"] = locale }
        return object
    }

    func json(_ status: Int, _ object: [String: Any]) -> TransportResponse { Self.json(status, object) }

    static func json(_ status: Int, _ object: [String: Any], headers: [String: String] = [:]) -> TransportResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return TransportResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
                                 body: body)
    }

    static func error(_ status: Int, _ code: String, reason: String? = nil, retryAfter: Int? = nil,
                      challenge: String? = nil) -> TransportResponse {
        var detail: [String: Any] = ["code": code, "message": "message for \(code)"]
        if let reason { detail["reason"] = reason }
        var headers: [String: String] = [:]
        if let retryAfter { headers["Retry-After"] = String(retryAfter) }
        if let challenge { headers["WWW-Authenticate"] = challenge }
        return json(status, ["error": detail], headers: headers)
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}
