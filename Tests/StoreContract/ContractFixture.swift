import AuthCore
import Foundation

/// The store under test, its clock and builders for what the cases insert. Every builder goes through a port.
public struct ContractFixture: Sendable {
    public let store: any AuthStore
    public let environment: ContractEnvironment

    /// `t0` plus `seconds`: the only clock a case reads.
    func at(_ seconds: TimeInterval) -> Date { environment.t0.addingTimeInterval(seconds) }

    /// 32 random bytes, standing for a SHA-256 token digest or a code HMAC (the stores never look inside them).
    func digest() -> Data { Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }) }

    func mail(_ kind: MailKind = .confirmEmail, to recipient: String) -> ComposedMail {
        ComposedMail(kind: kind, recipient: recipient, subject: "Subject", text: "text", html: "<p>html</p>",
                     deepLink: URL(string: "https://links.example.com/x"))
    }

    func address(_ raw: String) throws -> EmailAddress { try EmailAddress(raw) }

    /// A token for `user`, created at `created` seconds and living `ttl` seconds. An `emailChange` token needs
    /// `newEmail`.
    func token(
        for user: UserRecord, _ purpose: TokenPurpose, at created: TimeInterval = 10, ttl: TimeInterval = 3600,
        code: Data? = nil, newEmail: EmailAddress? = nil
    ) -> NewToken {
        let kind: MailKind = switch purpose {
        case .confirm: .confirmEmail
        case .reset: .resetPassword
        case .emailChange: .confirmEmailChange
        case .signIn: .signIn
        case .invite: .acceptInvite
        }
        return NewToken(hash: digest(), userID: user.id, purpose: purpose, createdAt: at(created),
                        expiresAt: at(created + ttl), mail: mail(kind, to: newEmail?.value ?? user.email),
                        codeDigest: code, newEmail: newEmail, binding: purpose == .signIn ? Self.binding : nil)
    }

    /// Stores `token` the way its purpose is stored: a change of address through `requestEmailChange` (which
    /// supersedes the user's earlier change), the others through `issueToken`.
    func issue(_ token: NewToken) throws {
        if token.purpose == .emailChange {
            try store.requestEmailChange(userID: token.userID, link: token, notices: [], at: token.createdAt)
        } else {
            try store.issueToken(token)
        }
    }

    /// A new live token of `purpose` for `user` (to an address of its own for a change of address).
    func issued(
        _ purpose: TokenPurpose, for user: UserRecord, at created: TimeInterval = 10, ttl: TimeInterval = 3600,
        code: Data? = nil
    ) throws -> NewToken {
        let newEmail = purpose == .emailChange ? try address("new-\(UUID().uuidString.prefix(8))@example.org") : nil
        let token = token(for: user, purpose, at: created, ttl: ttl, code: code, newEmail: newEmail)
        try issue(token)
        return token
    }

    /// The binding of every sign-in record the fixture issues (SHA-256 of the asking instance's secret).
    static let binding = Data(repeating: 0xB1, count: 32)

    /// Redeems the sign-in record `key` names at `seconds` with `binding`, as `AuthService` does.
    func signInByEmail(_ key: TokenKey, at seconds: TimeInterval, binding: Data = Self.binding, limit: Int = 5)
        throws -> (redemption: Redemption<UserRecord>, credentials: SessionCredentials, device: Data)
    {
        let credentials = credentials(at: seconds)
        let device = digest()
        let redemption = try store.completeEmailSignIn(EmailSignInCompletion(
            key: key, binding: binding, now: at(seconds), sessionID: SessionID(), credentials: credentials,
            device: DeviceTrust(tokenHash: device, expiresAt: at(seconds + 86400)), attemptLimit: limit,
            audit: AuditEvent(name: .emailSignInSucceeded, at: at(seconds), userID: nil, ip: nil)))
        return (redemption, credentials, device)
    }

    /// A PHC-looking hash; the stores only compare it.
    static let passwordHash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaC0x"

    /// An unconfirmed user created at 0 s with its confirm token (1 h), as sign-up makes one.
    @discardableResult
    func user(_ email: String, passwordHash: String = Self.passwordHash) throws -> (user: UserRecord, confirm: NewToken) {
        let id = UserID()
        let typed = try address(email)
        let placeholder = UserRecord(id: id, email: typed.value, passwordHash: passwordHash, createdAt: at(0),
                                     updatedAt: at(0))
        let confirm = token(for: placeholder, .confirm, at: 0)
        let user = try store.createUser(NewUser(id: id, email: typed, passwordHash: passwordHash, createdAt: at(0)),
                                        confirmation: confirm)
        return (user, confirm)
    }

    /// A user confirmed at 1 s, inserted as an operator does (no token).
    func confirmedUser(_ email: String, passwordHash: String = Self.passwordHash) throws -> UserRecord {
        try store.insertUser(NewUser(id: UserID(), email: try address(email), passwordHash: passwordHash,
                                     createdAt: at(0)), emailConfirmedAt: at(1))
    }

    /// The user as the store holds it now (the case fails if it is gone).
    func reload(_ user: UserRecord) throws -> UserRecord {
        guard let current = try store.findUser(id: user.id) else { throw ContractFailure.missing("user \(user.email)") }
        return current
    }

    /// Fresh session credentials issued at `seconds`: access 15 min, refresh 30 days.
    func credentials(at seconds: TimeInterval, agent: String? = "Agent/1.0", ip: String? = "203.0.113.7")
        -> SessionCredentials
    {
        SessionCredentials(accessTokenHash: digest(), accessExpiresAt: at(seconds + 900), refreshTokenHash: digest(),
                           refreshExpiresAt: at(seconds + 30 * 86400), userAgent: agent, ip: ip)
    }

    /// A session opened by a password sign-in at `seconds`, from the device `device` (a new one when nil).
    struct SignedIn {
        var id: SessionID
        var credentials: SessionCredentials
        var device: Data
    }

    @discardableResult
    func signIn(_ user: UserRecord, at seconds: TimeInterval, device: Data? = nil, deviceTTL: TimeInterval = 86400)
        throws -> SignedIn
    {
        let current = try reload(user)
        let signedIn = SignedIn(id: SessionID(), credentials: credentials(at: seconds), device: device ?? digest())
        let completed = try store.completeSignIn(SignInCompletion(
            session: NewSession(id: signedIn.id, userID: user.id, createdAt: at(seconds),
                                credentials: signedIn.credentials, passwordVersion: current.passwordVersion),
            verifiedPasswordHash: current.passwordHash, rehash: nil,
            device: DeviceTrust(tokenHash: signedIn.device, expiresAt: at(seconds + deviceTTL)),
            forgiveFailuresOf: nil, audit: AuditEvent(name: .signInSucceeded, at: at(seconds), userID: user.id, ip: nil)))
        guard completed else { throw ContractFailure.missing("sign-in of \(user.email)") }
        return signedIn
    }

    /// The session whose current access token `credentials` names, as `findSession` returns it.
    func found(_ credentials: SessionCredentials) throws -> Session? {
        try store.findSession(accessTokenHash: credentials.accessTokenHash)?.session
    }

    /// The session value a sign-in or confirmation at `seconds` with `credentials` inserts.
    func session(_ id: SessionID, of user: UserRecord, at seconds: TimeInterval, _ credentials: SessionCredentials,
                 revokedAt: Date? = nil) -> Session
    {
        Session(id: id, userID: user.id, accessExpiresAt: credentials.accessExpiresAt,
                refreshExpiresAt: credentials.refreshExpiresAt, createdAt: at(seconds), revokedAt: revokedAt,
                userAgent: credentials.userAgent, ip: credentials.ip, passwordVersion: user.passwordVersion)
    }

    /// A refresh at `seconds` of the token `presented`, with the rotation's alarms (user, session) as called.
    func rotate(_ presented: Data, at seconds: TimeInterval, successor: SessionCredentials? = nil,
                maxSessionAge: TimeInterval = 90 * 86400) throws -> (RefreshRotation, alarms: [String])
    {
        var alarms: [String] = []
        let rotation = try store.rotateRefreshToken(
            presentedHash: presented, successor: successor ?? credentials(at: seconds), now: at(seconds),
            maxSessionAge: maxSessionAge
        ) { userID, sessionID in
            alarms.append("\(userID) \(sessionID)")
            return AuditEvent(name: .refreshTokenReused, at: at(seconds), userID: userID, ip: nil,
                              detail: ["session_id": sessionID.description])
        }
        return (rotation, alarms)
    }

    /// The password reset of `key` by `user` at `seconds`, to `newHash`.
    func reset(_ key: TokenKey, by user: UserRecord, at seconds: TimeInterval, to newHash: String = "$argon2id$new")
        throws -> Redemption<PasswordResetResult>
    {
        try store.completePasswordReset(PasswordResetCompletion(
            key: key, userID: user.id, newPasswordHash: newHash, now: at(seconds),
            mail: mail(.passwordChanged, to: user.email)))
    }

    /// Accepting the invitation `key` names for `user` at `seconds` with `newHash`, opening a session with
    /// `credentials` when given.
    func acceptInvite(
        _ key: TokenKey, by user: UserRecord, at seconds: TimeInterval, to newHash: String = "$argon2id$new",
        session: InvitationAcceptance.OpenedSession? = nil
    ) throws -> Redemption<UserRecord> {
        try store.completeInvitation(InvitationAcceptance(
            key: key, userID: user.id, newPasswordHash: newHash, now: at(seconds), session: session))
    }

    /// The rate-limit count of (`key`, window at `seconds`) after one more hit: how many hits it held, plus one.
    func hitsAfterOneMore(_ key: String, window seconds: TimeInterval = 0) throws -> Int {
        try store.recordHit(key: key, windowStart: at(seconds))
    }
}

/// Something a case set up is not there: the case cannot go on.
enum ContractFailure: Error, CustomStringConvertible {
    case missing(String)

    var description: String {
        switch self {
        case .missing(let what): "missing: \(what)"
        }
    }
}
