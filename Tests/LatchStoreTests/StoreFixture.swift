import AuthCore
import Foundation
import LatchCrypto
import LatchStore
import LatchTestSupport
import PostgresClient

/// A fresh migrated database with every LatchStore type on it, and builders for the rows tests need.
/// Call `close()` (in a `defer`) to drop the database.
final class StoreFixture: Sendable {
    let database: TestDatabase
    let pool: PostgresPool
    let store: PostgresAuthStore
    let admin: PostgresAdminStore
    let queue: PostgresOutboxQueue
    let tokens = OpenSSLTokenGenerator()
    /// A fixed, whole-second base time: every test time is an offset from it.
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    init(maxConnections: Int = 8, outboxChannel: String = PostgresAuthStore.defaultOutboxChannel) throws {
        database = try TestDatabase.migrated()
        pool = database.makePool(maxConnections: maxConnections)
        store = PostgresAuthStore(pool: pool, outboxChannel: outboxChannel)
        admin = PostgresAdminStore(pool: pool)
        queue = PostgresOutboxQueue(pool: pool)
    }

    func close() {
        pool.close()
        database.drop()
    }

    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    /// A mail that carries `token` in its bodies and link, as the templates would, belonging to `user`'s account.
    func mail(_ kind: MailKind = .confirmEmail, to recipient: String, token: String? = nil, of user: UserID? = nil)
        -> ComposedMail
    {
        let link = token.map { URL(string: "https://links.example.com/confirmAuth?token=\($0)")! }
        return ComposedMail(
            kind: kind, recipient: recipient, subject: "Subject for \(recipient)",
            text: "Open \(link?.absoluteString ?? "nothing")", html: "<a href=\"\(link?.absoluteString ?? "")\">open</a>",
            deepLink: link, userID: user)
    }

    /// A confirm (or reset) token for `userID`, created at `createdAt`, with its mail. Returns the raw token too.
    func newToken(
        for userID: UserID, email: String, purpose: TokenPurpose = .confirm, createdAt: Date? = nil,
        ttl: TimeInterval = 3600
    ) -> (raw: String, token: NewToken) {
        let raw = tokens.makeToken()
        let created = createdAt ?? t0
        let kind: MailKind = purpose == .confirm ? .confirmEmail : .resetPassword
        return (raw, NewToken(
            hash: tokens.digest(raw), userID: userID, purpose: purpose, createdAt: created,
            expiresAt: created.addingTimeInterval(ttl), mail: mail(kind, to: email, token: raw, of: userID)))
    }

    /// Creates an unconfirmed user with a confirm token (created at `t0`); returns the user and the raw token.
    @discardableResult
    func makeUser(_ email: String = "ann@example.com", passwordHash: String = "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
        throws -> (user: UserRecord, confirmToken: String)
    {
        let id = UserID()
        let (raw, token) = newToken(for: id, email: email)
        let user = try store.createUser(
            NewUser(id: id, email: try EmailAddress(email), passwordHash: passwordHash, createdAt: t0),
            confirmation: token)
        return (user, raw)
    }

    /// Fresh session credentials issued at `now`; the raw access and refresh tokens are returned too.
    func credentials(now: Date? = nil, userAgent: String? = "TestAgent/1.0", ip: String? = "203.0.113.7")
        -> (access: String, refresh: String, credentials: SessionCredentials)
    {
        let now = now ?? t0
        let access = tokens.makeToken()
        let refresh = tokens.makeToken()
        return (access, refresh, SessionCredentials(
            accessTokenHash: tokens.digest(access), accessExpiresAt: now.addingTimeInterval(900),
            refreshTokenHash: tokens.digest(refresh), refreshExpiresAt: now.addingTimeInterval(30 * 86400),
            userAgent: userAgent, ip: ip))
    }

    /// Signs `userID` in at `now` (as sign-in does, from a new device); returns the session id and raw tokens.
    func makeSession(for userID: UserID, now: Date? = nil) throws -> (id: SessionID, access: String, refresh: String) {
        let now = now ?? t0
        let (access, refresh, credentials) = credentials(now: now)
        let id = SessionID()
        guard let user = try store.findUser(id: userID) else { throw StoreFixtureError.noSuchUser }
        let session = NewSession(id: id, userID: userID, createdAt: now, credentials: credentials,
                                 passwordVersion: user.passwordVersion)
        guard try store.completeSignIn(SignInCompletion(
            session: session, verifiedPasswordHash: user.passwordHash, rehash: nil,
            device: DeviceTrust(tokenHash: tokens.digest(tokens.makeToken()), expiresAt: now.addingTimeInterval(86400)),
            forgiveFailuresOf: nil, audit: AuditEvent(name: .signInSucceeded, at: now, userID: userID, ip: nil)))
        else { throw StoreFixtureError.signInRefused }
        return (id, access, refresh)
    }

    enum StoreFixtureError: Error { case noSuchUser, signInRefused }

    /// `SELECT count(*)` of a fixed test query.
    func count(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> Int {
        try pool.query(sql, parameters).scalar(Int.self) ?? -1
    }
}

extension PostgresAuthStore {
    /// Rotation with the default absolute session lifetime (90 days), which most tests never reach, and a plain
    /// alarm row.
    func rotateRefreshToken(
        presentedHash: Data, successor: SessionCredentials, now: Date, maxSessionAge: TimeInterval = 90 * 86400
    ) throws -> RefreshRotation {
        try rotateRefreshToken(presentedHash: presentedHash, successor: successor, now: now, maxSessionAge: maxSessionAge) {
            AuditEvent(name: .refreshTokenReused, at: now, userID: $0, ip: nil, detail: ["session_id": $1.description])
        }
    }
}
