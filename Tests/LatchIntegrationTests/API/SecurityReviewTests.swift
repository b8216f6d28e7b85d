import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// The findings of the security review of the account features, each as the attacker's request sequence over
/// real HTTP against PostgreSQL; each failed before its fix.
@Suite struct SecurityReviewTests {
    static let password = "correct horse battery"
    static let newPassword = "a brand new passphrase"

    /// Finding 1: anyone's failed sign-ins used to lock the owner out of changing the password, the address and
    /// deleting the account (429 with the right password).
    @Test func othersFailedSignInsDoNotLockTheOwnerOutOfReauthentication() throws {
        let app = try TestApp()
        defer { app.stop() }
        let owner = try app.signUpAndConfirm("owner@example.com", Self.password)
        for _ in 0..<10 {
            #expect(try app.signIn("owner@example.com", "a wrong guess here").status != 200)
        }
        #expect(try app.signIn("owner@example.com", Self.password).status == 429, "the address is locked out")

        let change = try app.send("POST", "/v1/password/change",
                              ["current_password": Self.password, "new_password": Self.newPassword],
                              bearer: owner.access_token)
        #expect(change.status == 200, "\(change.text)")
        let delete = try app.send("DELETE", "/v1/me", ["password": Self.newPassword], bearer: owner.access_token)
        #expect(delete.status == 204, "\(delete.text)")
    }

    /// Finding 1, the other side: a stolen session's guesses lock that session, not the owner.
    @Test func aStolenSessionsGuessesLockOnlyThatSession() throws {
        let app = try TestApp()
        defer { app.stop() }
        let stolen = try app.signUpAndConfirm("owner@example.com", Self.password)
        for _ in 0..<5 {
            let guess = try app.send("DELETE", "/v1/me", ["password": "a wrong guess here"], bearer: stolen.access_token)
            #expect(guess.status == 401)
        }
        let locked = try app.send("DELETE", "/v1/me", ["password": Self.password], bearer: stolen.access_token)
        #expect(locked.status == 429, "\(locked.text)")
        let owner = try app.session("owner@example.com", Self.password)
        let change = try app.send("POST", "/v1/password/change",
                              ["current_password": Self.password, "new_password": Self.newPassword],
                              bearer: owner.access_token)
        #expect(change.status == 200, "\(change.text)")
    }

    /// Finding 7: a stranger's requests with wrong passwords used to spend the new address's limit, blocking
    /// every move to it for an hour.
    @Test func wrongPasswordsDoNotSpendTheNewAddresssLimit() throws {
        let app = try TestApp()
        defer { app.stop() }
        let owner = try app.signUpAndConfirm("owner@example.com", Self.password)
        let stranger = try app.signUpAndConfirm("stranger@example.com", "stranger passphrase")
        for _ in 0..<4 {
            let guess = try app.send("POST", "/v1/email/change",
                                 ["new_email": "wanted@example.com", "password": "a wrong guess here"],
                                 bearer: stranger.access_token)
            #expect(guess.status == 401, "\(guess.text)")
        }
        let move = try app.send("POST", "/v1/email/change",
                            ["new_email": "wanted@example.com", "password": Self.password], bearer: owner.access_token)
        #expect(move.status == 202, "\(move.text)")
        #expect(try app.outboxCount(to: "wanted@example.com", kind: .confirmEmailChange) == 1)
    }
}

extension SecurityReviewTests {
    /// Finding 2: an account that asked to move to a victim's address and then deleted itself used to reset the
    /// victim's limits and lockout, drop the victim's unsent mail and blank the victim's address in mail and audit
    /// rows.
    @Test func deletingAnAccountTouchesNoOtherAccountsRows() throws {
        let app = try TestApp()
        defer { app.stop() }
        let victim = "victim@example.com"
        _ = try app.signUpAndConfirm(victim, Self.password)
        for _ in 0..<3 { #expect(try app.signIn(victim, "a wrong guess here").status == 401) }
        #expect(try app.post("/v1/password/forgot", fields: ["email": victim]).status == 202)
        func victimsRows() throws -> [Int] {
            [
                try app.count("SELECT count(*) FROM outbox WHERE recipient = $1", [victim]),
                try app.count("SELECT count(*) FROM signin_failures WHERE email_key = $1", [victim]),
                try app.count("SELECT count(*) FROM rate_limits WHERE key LIKE $1", ["%:email:" + victim]),
                try app.count("SELECT count(*) FROM audit_log WHERE detail->>'email' = $1", [victim]),
            ]
        }
        let before = try victimsRows()
        #expect(before.allSatisfy { $0 > 0 }, "\(before)")

        let attacker = try app.signUpAndConfirm("throwaway@example.com", "throwaway passphrase")
        let move = try app.send("POST", "/v1/email/change", ["new_email": victim, "password": "throwaway passphrase"],
                            bearer: attacker.access_token)
        #expect(move.status == 202)
        let afterRequest = try victimsRows()
        let deleted = try app.send("DELETE", "/v1/me", ["password": "throwaway passphrase"], bearer: attacker.access_token)
        #expect(deleted.status == 204, "\(deleted.text)")

        #expect(try victimsRows() == afterRequest, "the victim's mail, lockout, limits and audit rows are untouched")
        #expect(try app.count("SELECT count(*) FROM outbox WHERE recipient = ''") == 0)
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = 'throwaway@example.com'") == 0)
    }
}

extension SecurityReviewTests {
    /// Finding 10: strangers' five wrong codes used to spend the owner's newest link, and every resend left
    /// another live code. Wrong codes now retire the code only, and a new mail's code retires the older ones.
    @Test func strangersWrongCodesNeverSpendTheOwnersLink() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("owner@example.com", Self.password).status == 202)
        for attempt in 0..<6 {
            let guess = try app.post("/v1/confirm", fields: ["email": "owner@example.com", "code": "1234567\(attempt)"])
            #expect(guess.status == 400 && ErrorJSON.code(guess) == "invalid_code", "\(guess.text)")
        }
        let confirm = try app.confirm(try app.confirmToken("owner@example.com"))
        #expect(confirm.status == 200, "\(confirm.text)")
    }

    @Test func aResendRetiresTheOlderCodes() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("owner@example.com", Self.password).status == 202)
        for _ in 0..<2 {
            #expect(try app.post("/v1/confirm/resend", fields: ["email": "owner@example.com"]).status == 202)
        }
        #expect(try app.count("""
            SELECT count(*) FROM auth_tokens WHERE code_hmac IS NOT NULL AND used_at IS NULL AND superseded_at IS NULL
            """) == 1)
        #expect(try app.count("SELECT count(*) FROM auth_tokens WHERE used_at IS NULL AND superseded_at IS NULL") == 3,
                "every link still works")
    }
}

extension SecurityReviewTests {
    /// Finding 11 (NIST SP 800-63B §5.2.2): password sign-in used to go on without end. After 100 failures since
    /// the last success it is refused without a trusted device, and the owner is mailed a reset link.
    @Test func aHundredFailuresSinceTheLastSuccessNeedTheOwnersDeviceOrAReset() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("owner@example.com", Self.password)
        let trusted = try app.signIn("owner@example.com", Self.password)
        let device = try #require(try JSONSerialization.jsonObject(with: Data(trusted.text.utf8)) as? [String: Any])["device_token"]
            as? String
        // 99 failures since the last success, long ago enough that the lockout has forgotten them (the row as a
        // patient attacker leaves it), then the hundredth.
        try app.sql("""
            INSERT INTO signin_failures (email_key, count, last_failure_at, since_success)
            VALUES ('owner@example.com', 1, now() - interval '2 days', 99)
            ON CONFLICT (email_key) DO UPDATE SET count = 1, last_failure_at = now() - interval '2 days', since_success = 99
            """)
        let resetsBefore = try app.outboxCount(to: "owner@example.com", kind: .resetPassword)
        #expect(try app.signIn("owner@example.com", "a wrong guess here").status == 401)
        #expect(try app.outboxCount(to: "owner@example.com", kind: .resetPassword) == resetsBefore + 1)

        let refused = try app.signIn("owner@example.com", Self.password)
        #expect(refused.status == 429, "\(refused.text)")
        let fromDevice = try app.post("/v1/signin", fields: [
            "email": "owner@example.com", "password": Self.password, "device_token": try #require(device),
        ])
        #expect(fromDevice.status == 200, "\(fromDevice.text)")
        #expect(try app.resetPassword(try app.resetToken("owner@example.com"), Self.newPassword).status == 200)
        #expect(try app.signIn("owner@example.com", Self.newPassword).status == 200)
    }
}

extension SecurityReviewTests {
    /// The code shown in the newest mail of `kind` to `recipient`, as typed from its text body.
    func typedCode(_ app: TestApp, to recipient: String, kind: MailKind) throws -> String {
        let text = try #require(try app.pool.query(
            "SELECT text_body FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
            [recipient, kind.rawValue]).first?.decode(String.self, column: 0))
        let marker = try #require(text.range(of: "Or type this code in the app:"))
        return String(text[marker.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines).prefix(9))
    }

    /// Finding 5: a code typed with an address was checked against the newest request for it only: a stranger's
    /// request broke the rightful user's code, and the newest mail's code moved the stranger's account onto the
    /// victim's address. The mail now names the asking account.
    @Test func aStrangersRequestForTheSameAddressNeitherBreaksNorTakesTheRightfulCode() throws {
        let app = try TestApp()
        defer { app.stop() }
        let owner = try app.signUpAndConfirm("owner@example.com", Self.password)
        let stranger = try app.signUpAndConfirm("stranger@example.com", "stranger passphrase")
        let wanted = ["new_email": "wanted@example.com"]
        #expect(try app.send("POST", "/v1/email/change", wanted.merging(["password": Self.password]) { $1 },
                             bearer: owner.access_token).status == 202)
        let ownersCode = try typedCode(app, to: "wanted@example.com", kind: .confirmEmailChange)
        #expect(try app.send("POST", "/v1/email/change", wanted.merging(["password": "stranger passphrase"]) { $1 },
                             bearer: stranger.access_token).status == 202)
        let strangersMail = try #require(try app.pool.query(
            "SELECT text_body FROM outbox WHERE recipient = 'wanted@example.com' ORDER BY id DESC LIMIT 1"
        ).first?.decode(String.self, column: 0))
        #expect(strangersMail.contains("s•••@example.com"), "the mail names the account that asked")

        let moved = try app.post("/v1/email/change/confirm", fields: ["email": "wanted@example.com", "code": ownersCode])
        #expect(moved.status == 200, "\(moved.text)")
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = 'wanted@example.com' AND id::text = $1",
                              [owner.user.id]) == 1)
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = 'stranger@example.com'") == 1)
    }
}
