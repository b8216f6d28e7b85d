import AuthCore
import Foundation
import LatchTestSupport
import Synchronization
import Testing

/// The account-management endpoints over real HTTP against PostgreSQL, each with the abuse it must stop: a stolen
/// access token alone takes nothing, an address is not claimed without its mailbox, two accounts never share one,
/// and nothing tells an attacker which addresses have accounts.
@Suite struct AccountManagementTests {
    static let password = "correct horse battery"
    static let newPassword = "a brand new passphrase"

    struct SessionList: Decodable {
        struct Entry: Decodable {
            let id: String
            let user_agent: String?
            let ip: String?
            let current: Bool
            let created_at: String
            let last_used_at: String
        }

        let sessions: [Entry]
    }

    // MARK: - Password

    @Test func changingThePasswordNeedsTheCurrentOneAndEndsOnlyTheOtherSessions() throws {
        let app = try TestApp()
        defer { app.stop() }
        let mine = try app.signUpAndConfirm("pw@example.com", Self.password)
        let other = try app.session("pw@example.com", Self.password)

        let guess = try app.send("POST", "/v1/password/change",
                             ["current_password": "a wrong guess here", "new_password": Self.newPassword],
                             bearer: mine.access_token)
        #expect(guess.status == 401 && ErrorJSON.code(guess) == "invalid_credentials", "\(guess.text)")
        #expect(try app.count("SELECT count(*) FROM audit_log WHERE event = 'reauthentication_failed'") == 1)

        let weak = try app.send("POST", "/v1/password/change",
                            ["current_password": Self.password, "new_password": "short"], bearer: mine.access_token)
        #expect(weak.status == 422 && ErrorJSON.code(weak) == "weak_password")

        let changed = try app.send("POST", "/v1/password/change",
                               ["current_password": Self.password, "new_password": Self.newPassword],
                               bearer: mine.access_token)
        #expect(changed.status == 200 && changed.text == #"{"status":"password_changed"}"#, "\(changed.text)")
        #expect(try app.me(mine.access_token).status == 200)
        #expect(try app.refresh(mine.refresh_token).status == 200)
        #expect(try app.me(other.access_token).status == 401)
        #expect(try app.refresh(other.refresh_token).status == 401)
        #expect(try app.signIn("pw@example.com", Self.password).status == 401)
        #expect(try app.signIn("pw@example.com", Self.newPassword).status == 200)
        #expect(try app.outboxCount(to: "pw@example.com", kind: .passwordChanged) == 1)
    }

    @Test func everyAccountCallRefusesAMissingTokenAndBadBodies() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm("bodies@example.com", Self.password)
        for (method, path) in [("POST", "/v1/password/change"), ("POST", "/v1/email/change"), ("DELETE", "/v1/me"),
                               ("GET", "/v1/sessions"), ("DELETE", "/v1/sessions/\(UUID())")] {
            let anonymous = try app.send(method, path, method == "GET" || path.contains("sessions") ? nil : [:])
            #expect(anonymous.status == 401 && ErrorJSON.code(anonymous) == "missing_token", "\(method) \(path)")
        }
        for path in ["/v1/password/change", "/v1/email/change"] {
            let empty = try app.send("POST", path, [:], bearer: session.access_token)
            #expect(empty.status == 422 && ErrorJSON.code(empty) == "invalid_request", "\(path): \(empty.text)")
        }
        let same = try app.send("POST", "/v1/email/change",
                            ["new_email": "BODIES@example.com", "password": Self.password], bearer: session.access_token)
        #expect(same.status == 422 && ErrorJSON.code(same) == "email_unchanged")
        let confirm = try app.send("POST", "/v1/email/change/confirm", ["token": "x", "code": "1"])
        #expect(confirm.status == 422 && ErrorJSON.code(confirm) == "invalid_request")
    }

    // MARK: - Address

    @Test func aTakenAddressLooksLikeAFreeOneAndGetsNoLink() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("bob@example.com", Self.password)
        let ann = try app.signUpAndConfirm("ann@example.com", Self.password)

        let free = try app.send("POST", "/v1/email/change",
                            ["new_email": "ann.new@example.com", "password": Self.password], bearer: ann.access_token)
        let taken = try app.send("POST", "/v1/email/change",
                             ["new_email": "BOB@example.com", "password": Self.password], bearer: ann.access_token)
        #expect(free.status == 202 && taken.status == 202)
        #expect(free.text == taken.text)
        #expect(try app.outboxCount(to: "bob@example.com", kind: .emailAlreadyRegistered) == 1)
        #expect(try app.latestLink(to: "bob@example.com", kind: .emailAlreadyRegistered) == nil)
        #expect(try app.count("SELECT count(*) FROM auth_tokens WHERE new_email_key = 'bob@example.com'") == 0)
        // The older change to a free address was superseded by the newer request.
        let pending = try app.count("""
            SELECT count(*) FROM auth_tokens WHERE purpose = 'email_change' AND used_at IS NULL AND superseded_at IS NULL
            """)
        #expect(pending == 0)
    }

    @Test func twoAccountsConfirmingOneAddressAtOnceGetItOnce() throws {
        let app = try TestApp()
        defer { app.stop() }
        var tokens: [String] = []
        for name in ["ann", "cat", "dan"] {
            let session = try app.signUpAndConfirm("\(name)@example.com", Self.password)
            let asked = try app.send("POST", "/v1/email/change",
                                 ["new_email": "prize@example.com", "password": Self.password],
                                 bearer: session.access_token)
            #expect(asked.status == 202)
            tokens.append(try #require(try app.tokens("prize@example.com", kind: .confirmEmailChange).last))
        }
        let next = Mutex(0)
        let links = tokens
        let statuses = ConcurrentRequests.statuses(count: links.count, port: app.port) { client in
            let token = next.withLock { index in
                defer { index += 1 }
                return links[index]
            }
            return try client.sendJSON("POST", "/v1/email/change/confirm", json: TestApp.body(["token": token])).status
        }
        #expect(statuses.sorted() == [200, 409, 409])
        // The losers' links are not spent: nothing of theirs was written.
        #expect(try app.count("SELECT count(*) FROM auth_tokens WHERE purpose = 'email_change' AND used_at IS NULL") == 2)
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = 'prize@example.com'") == 1)
        #expect(try app.count("SELECT count(*) FROM users") == 3)
    }

    // MARK: - Sessions

    @Test func sessionsAreListedAndOnlyOnesOwnCanBeEnded() throws {
        let app = try TestApp()
        defer { app.stop() }
        let laptop = try app.signUpAndConfirm("devices@example.com", Self.password)
        let phone = try app.session("devices@example.com", Self.password)
        let bob = try app.signUpAndConfirm("bob@example.com", Self.password)

        let listed = try app.send("GET", "/v1/sessions", bearer: laptop.access_token)
        #expect(listed.status == 200)
        let sessions = try listed.json(SessionList.self).sessions
        #expect(sessions.count == 2)
        #expect(sessions.filter(\.current).count == 1)
        #expect(!listed.text.contains(laptop.access_token) && !listed.text.contains(laptop.refresh_token))
        let phoneID = try #require(sessions.first { !$0.current }?.id)
        let bobsID = try #require(try app.send("GET", "/v1/sessions", bearer: bob.access_token)
            .json(SessionList.self).sessions.first?.id)

        for id in [bobsID, "not-a-uuid", UUID().uuidString, "%00"] {
            let refused = try app.send("DELETE", "/v1/sessions/\(id)", bearer: laptop.access_token)
            #expect(refused.status == 404 && ErrorJSON.code(refused) == "session_not_found", "\(id): \(refused.text)")
        }
        #expect(try app.me(bob.access_token).status == 200)

        #expect(try app.send("DELETE", "/v1/sessions/\(phoneID.uppercased())", bearer: laptop.access_token).status
            == 204)
        #expect(try app.me(phone.access_token).status == 401)
        #expect(try app.refresh(phone.refresh_token).status == 401)
        #expect(try app.send("GET", "/v1/sessions", bearer: laptop.access_token).json(SessionList.self).sessions
            .map(\.current) == [true])

        let phoneAgain = try app.session("devices@example.com", Self.password)
        let others = try app.send("POST", "/v1/signout", ["scope": "others"], bearer: laptop.access_token)
        #expect(others.status == 204)
        #expect(try app.me(laptop.access_token).status == 200)
        #expect(try app.me(phoneAgain.access_token).status == 401)
    }

    // MARK: - Deletion

    @Test func deletingTheAccountNeedsThePasswordAndLeavesNoAddressBehind() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "Leaving@example.com"
        let session = try app.signUpAndConfirm(email, Self.password)
        _ = try app.signIn(email, "a wrong guess here")
        let pending = try app.send("POST", "/v1/email/change",
                               ["new_email": "leaving.next@example.com", "password": Self.password],
                               bearer: session.access_token)
        #expect(pending.status == 202)

        let guess = try app.send("DELETE", "/v1/me", ["password": "a wrong guess here"], bearer: session.access_token)
        #expect(guess.status == 401 && ErrorJSON.code(guess) == "invalid_credentials")
        #expect(try app.me(session.access_token).status == 200)

        let deleted = try app.send("DELETE", "/v1/me", ["password": Self.password], bearer: session.access_token)
        #expect(deleted.status == 204, "\(deleted.text)")
        #expect(try app.me(session.access_token).status == 401)
        #expect(try app.refresh(session.refresh_token).status == 401)
        for table in ["users", "sessions", "refresh_tokens", "auth_tokens", "trusted_devices", "signin_failures"] {
            #expect(try app.count("SELECT count(*) FROM \(table)") == 0, "\(table)")
        }
        // Only the last notice names the address, and only until it is sent.
        #expect(try app.count("SELECT count(*) FROM outbox WHERE recipient ILIKE '%leaving%'") == 1)
        #expect(try app.count("SELECT count(*) FROM outbox WHERE kind = 'account_deleted' AND forget_recipient") == 1)
        #expect(try app.count("SELECT count(*) FROM audit_log WHERE detail::text ILIKE '%leaving%'") == 0)
        #expect(try app.count("SELECT count(*) FROM audit_log WHERE event = 'account_deleted'") == 1)
        #expect(try app.count("SELECT count(*) FROM rate_limits WHERE key LIKE '%:email:leaving@example.com'") == 0)

        // The address is free for a new account.
        #expect(try app.signUp(email, Self.password).status == 202)
        #expect(try app.outboxCount(to: email, kind: .confirmEmail) == 1)
    }
}
