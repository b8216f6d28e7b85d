import Foundation
import LatchTestSupport
import TestKit
import Testing

/// ARCHITECTURE.md, security rules 1, 2 and 8: after every flow has run and every mail has been sent, no table holds a raw
/// token or password (only SHA-256 digests and Argon2id PHC strings), sent mails are scrubbed, and no log line
/// holds a secret or a hash.
@Suite struct SecretStorageTests {
    /// Every secret one user's life produced, gathered over HTTP from an instance that logs to a file.
    struct Secrets {
        var passwords: [String] = []
        var mailedTokens: [String] = []
        var sessionTokens: [String] = []
        /// The access tokens' `jti`s: only their SHA-256 may be stored.
        var accessTokenIDs: [String] = []
        var all: [String] { passwords + mailedTokens + sessionTokens + accessTokenIDs }
    }

    static func runEveryFlow(through api: APIClient, reading app: TestApp) throws -> Secrets {
        var secrets = Secrets(passwords: ["first Passphrase", "second Passphrase", "wrong Passphrase"])
        let email = "sam@example.test"
        _ = try api.post("/v1/signup", ["email": email, "password": secrets.passwords[0]])
        _ = try api.post("/v1/confirm/resend", ["email": email])
        let confirmToken = try app.confirmToken(email)
        let confirmed = try api.expect(200, "/v1/confirm", ["token": confirmToken], as: SessionJSON.self)
        // A second sign-up for the confirmed address: hashed, answered, never stored.
        _ = try api.post("/v1/signup", ["email": email, "password": "another Passphrase"])
        secrets.passwords.append("another Passphrase")
        let signedIn = try api.expect(200, "/v1/signin", ["email": email, "password": secrets.passwords[0]],
                                      as: SessionJSON.self)
        _ = try api.post("/v1/signin", ["email": email, "password": secrets.passwords[2]])
        let rotated = try api.expect(200, "/v1/token/refresh", ["refresh_token": signedIn.refresh_token],
                                     as: SessionJSON.self)
        _ = try api.post("/v1/token/refresh", ["refresh_token": signedIn.refresh_token])  // reuse
        _ = try api.get("/v1/me", headers: confirmed.bearer)
        _ = try api.post("/v1/signout", ["scope": "local"], headers: confirmed.bearer)
        _ = try api.post("/v1/password/forgot", ["email": email])
        let resetToken = try app.resetToken(email)
        _ = try api.post("/v1/password/reset", ["token": resetToken, "password": "password"])  // weak: refused
        _ = try api.expect(200, "/v1/password/reset", ["token": resetToken, "password": secrets.passwords[1]],
                           as: ErrorlessStatus.self)
        let last = try api.expect(200, "/v1/signin", ["email": email, "password": secrets.passwords[1]],
                                  as: SessionJSON.self)
        secrets.mailedTokens = [confirmToken, resetToken]
        secrets.sessionTokens = [confirmed, signedIn, rotated, last].flatMap { [$0.access_token, $0.refresh_token] }
        secrets.accessTokenIDs = try [confirmed, signedIn, rotated, last].map { try AccessTokenParts.tokenID($0.access_token) }
        return secrets
    }

    struct ErrorlessStatus: Decodable { let status: String }

    @Test func noTableAndNoLogLineHoldsARawSecretOnceTheMailIsSent() throws {
        let app = try TestApp()
        defer { app.stop() }
        let serving = try LoggedApplication(database: app.database)
        defer { serving.stop() }
        let secrets = try Self.runEveryFlow(through: APIClient(port: serving.port), reading: app)

        // Positive controls: the digests are there, so the search below looks in the right places.
        for token in secrets.mailedTokens {
            #expect(try app.count("SELECT count(*)::int8 FROM auth_tokens WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
                                  [token]) == 1)
        }
        #expect(try app.count("SELECT count(*)::int8 FROM sessions WHERE access_token_hash = sha256(convert_to($1, 'UTF8'))",
                              [secrets.accessTokenIDs[3]]) == 1)
        #expect(try app.count("SELECT count(*)::int8 FROM refresh_tokens WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
                              [secrets.sessionTokens[7]]) == 1)

        // And the scanner finds a raw token where one legitimately sits: in the unsent mail.
        let scanner = SecretScanner(pool: app.pool)
        let columns = try scanner.columns()
        let unsent = try scanner.columns(holding: secrets.mailedTokens[1], among: columns).map(\.description)
        #expect(unsent.contains("outbox.deep_link") && unsent.contains("outbox.text_body"), "\(unsent)")

        // A second instance with a worker sends (and so scrubs) every queued mail.
        let sender = try LoggedApplication(database: app.database, environment: ["LATCH_OUTBOX_WORKERS": "1",
                                                                                "LATCH_OUTBOX_POLL": "1s"])
        defer { sender.stop() }
        _ = try eventually(within: .seconds(20), every: .milliseconds(100)) {
            try app.count("SELECT count(*)::int8 FROM outbox WHERE sent_at IS NULL") == 0
        }
        #expect(try app.count("SELECT count(*)::int8 FROM outbox WHERE sent_at IS NULL") == 0)
        #expect(try app.count("SELECT count(*)::int8 FROM outbox") >= 5, "confirm x2, notice, reset, changed")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM outbox WHERE subject IS NOT NULL OR text_body IS NOT NULL
                OR html_body IS NOT NULL OR deep_link IS NOT NULL OR recipient <> 'sam@example.test'
            """) == 0, "sent rows keep recipient and kind only")
        #expect(sender.mails.count >= 5, "the mails did go out")

        #expect(columns.contains { $0.description == "outbox.deep_link" }, "the scan sees every table")
        for secret in secrets.all {
            let holding = try scanner.columns(holding: secret, among: columns)
            #expect(holding.isEmpty, "\(secret.prefix(6))… stored raw in \(holding)")
        }
        let hashes = try app.pool.query("SELECT password_hash FROM users").map { try $0.decode(String.self, column: 0) }
        #expect(hashes.count == 1)
        #expect(hashes.allSatisfy { $0.hasPrefix("$argon2id$v=19$m=") }, "\(hashes)")

        let log = serving.log + sender.log
        #expect(log.contains("\"request\""), "the log was captured")
        let digests = try app.pool.query("""
            SELECT encode(token_hash, 'hex') FROM auth_tokens UNION ALL SELECT encode(access_token_hash, 'hex') FROM sessions
            UNION ALL SELECT encode(token_hash, 'hex') FROM refresh_tokens
            """).map { try $0.decode(String.self, column: 0) }
        for secret in secrets.all + hashes + digests {
            #expect(!log.contains(secret), "\(secret.prefix(6))… logged")
        }
    }
}
