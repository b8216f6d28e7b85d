import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// `PATCH` and `DELETE /admin/v1/users/{id}` and `DELETE /admin/v1/users/{id}/mfa` through the private listener:
/// latchctl's operations by user id, with their rules, mail and audit rows.
@Suite struct AdminUserWritesTests {
    static let password = "correct horse battery"

    struct User: Decodable {
        let id: String
        let email: String
        let status: String
        let locale: String?
    }

    /// A confirmed user with a live session, made through the public API.
    static func userWithSession(_ app: TestApp, _ email: String) throws -> (id: String, session: SessionJSON) {
        let session = try app.signUpAndConfirm(email, password)
        return (session.user.id, session)
    }

    @Test func anAddressLeftToConfirmIsMailedAConfirmationAndAVouchedOneIsNot() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersWrite, .usersRead])
        let (id, session) = try Self.userWithSession(app, "ann@example.com")

        let moved = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key, json: #"{"email":"Ann.New@Example.com"}"#)
        #expect(moved.status == 200, "\(moved.text)")
        let user = try moved.json(User.self)
        #expect(user.email == "Ann.New@example.com" && user.status == "unconfirmed", "\(moved.text)")
        let token = try app.confirmToken("Ann.New@example.com")
        #expect(try app.confirm(token).status == 200, "the mailed link confirms the new address")
        #expect(try app.signIn("ann.new@example.com", Self.password).status == 200)
        #expect(try app.signIn("ann@example.com", Self.password).status == 401, "the old address is gone")
        #expect(try app.me(session.access_token).status == 200, "moving the address ends no session")

        let vouched = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key,
                                    json: #"{"email":"ann3@example.com","email_confirmed":true}"#)
        #expect(try vouched.status == 200 && vouched.json(User.self).status == "confirmed", "\(vouched.text)")
        #expect(try app.outboxCount(to: "ann3@example.com") == 0, "a vouched-for address gets no confirmation")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'email_changed' AND detail->>'actor' = 'apikey:support'
            """) == 2)
    }

    @Test func aTakenAddressChangesNothingElseInTheSameRequest() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersWrite])
        let (id, session) = try Self.userWithSession(app, "bob@example.com")
        _ = try Self.userWithSession(app, "carol@example.com")

        let taken = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key,
                                  json: #"{"email":"CAROL@example.com","disabled":true,"locale":"en"}"#)
        #expect(taken.status == 409 && ErrorJSON.code(taken) == "email_taken", "\(taken.text)")
        #expect(try app.me(session.access_token).status == 200, "not disabled")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support'
            """) == 0, "neither the language nor the disabling ran")
    }

    @Test func disablingEndsEverySessionAndEnablingLetsTheOwnerBackIn() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersWrite])
        let (id, session) = try Self.userWithSession(app, "dan@example.com")

        let disabled = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key, json: #"{"disabled":true}"#)
        #expect(try disabled.status == 200 && disabled.json(User.self).status == "disabled", "\(disabled.text)")
        #expect(try app.me(session.access_token).status == 401)
        #expect(try app.refresh(session.refresh_token).status == 401)
        #expect(try app.signIn("dan@example.com", Self.password).status != 200)

        let enabled = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key, json: #"{"disabled":false,"locale":"en"}"#)
        #expect(enabled.status == 200, "\(enabled.text)")
        let user = try enabled.json(User.self)
        #expect(user.status == "confirmed" && user.locale == "en")
        #expect(try app.signIn("dan@example.com", Self.password).status == 200)
        #expect(try app.refresh(session.refresh_token).status == 401, "revoked sessions stay revoked")
    }

    @Test func badBodiesAndUnknownUsersGetTypedErrors() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersWrite, .mfaReset])
        let (id, _) = try Self.userWithSession(app, "eve@example.com")
        let cases: [(String, Int, String)] = [
            ("{}", 422, "invalid_request"),
            (#"{"email_confirmed":true}"#, 422, "invalid_request"),
            (#"{"disabled":"yes"}"#, 422, "invalid_request"),
            (#"{"disabled":null}"#, 422, "invalid_request"),
            (#"{"nickname":"x"}"#, 422, "invalid_request"),
            (#"{"email":"not an address"}"#, 422, "invalid_email"),
            (#"{"locale":"xx"}"#, 422, "unsupported_locale"),
        ]
        for (json, status, code) in cases {
            let response = try app.admin("PATCH", "/admin/v1/users/\(id)", key: key, json: json)
            #expect(response.status == status && ErrorJSON.code(response) == code, "\(json): \(response.text)")
        }
        let nobody = "00000000-0000-4000-8000-000000000000"
        for (method, path, json) in [("PATCH", "/admin/v1/users/\(nobody)", #"{"disabled":true}"#),
                                     ("DELETE", "/admin/v1/users/\(nobody)", nil),
                                     ("DELETE", "/admin/v1/users/\(nobody)/mfa", nil),
                                     ("DELETE", "/admin/v1/users/not-a-uuid", nil)] as [(String, String, String?)] {
            let response = try app.admin(method, path, key: key, json: json)
            #expect(response.status == 404 && ErrorJSON.code(response) == "user_not_found", "\(path) \(response.text)")
        }
    }

    @Test func deletingAUserEndsTheAccountAsSelfServiceDeletionDoes() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersWrite, .usersRead])
        let (id, session) = try Self.userWithSession(app, "fay@example.com")

        let deleted = try app.admin("DELETE", "/admin/v1/users/\(id)", key: key)
        #expect(deleted.status == 204 && deleted.text.isEmpty, "\(deleted.text)")
        #expect(try app.me(session.access_token).status == 401)
        #expect(try app.admin("GET", "/admin/v1/users/\(id)", key: key).status == 404)
        #expect(try app.admin("DELETE", "/admin/v1/users/\(id)", key: key).status == 404, "only once")
        #expect(try app.outboxCount(to: "fay@example.com", kind: .accountDeleted) == 1, "the owner is told")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'user_deleted' AND user_id = $1::uuid
              AND detail->>'actor' = 'apikey:support'
            """, [id]) == 1)
        #expect(try app.signUp("fay@example.com", Self.password).status == 202, "the address is free again")
    }

    @Test func resettingTwoStepVerificationWithoutAFactorChangesNothing() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.mfaReset])
        let (id, session) = try Self.userWithSession(app, "gus@example.com")
        let reset = try app.admin("DELETE", "/admin/v1/users/\(id)/mfa", key: key)
        #expect(reset.status == 200, "\(reset.text)")
        #expect(reset.text == #"{"mail_queued":false,"removed_factors":0,"revoked_sessions":0}"#, "\(reset.text)")
        #expect(try app.me(session.access_token).status == 200)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'mfa_reset' AND detail->>'actor' = 'apikey:support'
            """) == 1)
    }
}
