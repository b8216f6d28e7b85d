import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// `GET /admin/v1/users` and `GET /admin/v1/users/{id}` through the private listener on PostgreSQL: keyset pages,
/// filters, strict queries.
@Suite struct AdminUsersTests {
    struct Page: Decodable {
        struct User: Decodable {
            let id: String
            let email: String
            let status: String
        }

        let users: [User]
        let next_cursor: String?
    }

    static func page(_ app: TestApp, _ target: String, key: String) throws -> (Page, HTTPTestClient.Response) {
        let response = try app.admin("GET", target, key: key)
        guard response.status == 200 else { throw PageFailed(response: response.text) }
        return (try response.json(Page.self), response)
    }

    struct PageFailed: Error {
        let response: String
    }

    @Test func pagesReturnEveryUserExactlyOnceWhileUsersAreAdded() async throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("reader", [.usersRead])
        try app.seedUsers(1000, prefix: "seed")
        let start = Date(timeIntervalSince1970: 1_800_000_000)

        // Meanwhile: users created inside the listed range, between pages already read and ahead of the reader.
        let writer = Task.detached {
            for n in 0..<200 {
                try app.pool.query("""
                    INSERT INTO users (id, email, email_key, password_hash, created_at, updated_at)
                    VALUES (gen_random_uuid(), $1::text, $1::text, '!', $2, $2)
                    """, ["late\(n)@example.com", start.addingTimeInterval(Double(n * 5) + 0.5)])
            }
        }
        var seen: [String] = []
        var target = "/admin/v1/users?limit=37"
        var pages = 0
        while true {
            let (page, response) = try Self.page(app, target, key: key)
            seen += page.users.map(\.email)
            pages += 1
            guard let next = page.next_cursor else {
                #expect(response.header("Link") == nil)
                break
            }
            let link = try #require(response.header("Link"))
            #expect(link == "</admin/v1/users?limit=37&cursor=\(next)>; rel=\"next\"")
            target = String(link.dropFirst().prefix { $0 != ">" })
        }
        try await writer.value
        let seeded = seen.filter { $0.hasPrefix("seed") }
        #expect(seeded.count == 1000 && Set(seeded).count == 1000, "each seeded user exactly once")
        #expect(Set(seen).count == seen.count, "no user twice")
        #expect(pages >= 1000 / 37)
    }

    @Test func filtersNarrowThePageAndThePrefixIsLiteral() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("reader", [.usersRead])
        for (email, confirmed, disabled) in [("a_b@example.com", true, false), ("axb@example.com", true, false),
                                             ("a%c@example.com", false, false), ("A_D@example.com", false, true)] {
            try app.pool.query("""
                INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, disabled_at, created_at,
                                   updated_at)
                VALUES (gen_random_uuid(), $1::text, lower($1::text), '!', CASE WHEN $2::bool THEN now() END,
                        CASE WHEN $3::bool THEN now() END,
                        now(), now())
                """, [email, confirmed, disabled])
        }
        func emails(_ query: String) throws -> [String] {
            try Self.page(app, "/admin/v1/users?\(query)", key: key).0.users.map(\.email).sorted()
        }
        #expect(try emails("email_prefix=a_") == ["A_D@example.com", "a_b@example.com"])
        #expect(try emails("email_prefix=A%25") == ["a%c@example.com"])
        #expect(try emails("email_prefix=a").count == 4)
        #expect(try emails("email=AXB@Example.com") == ["axb@example.com"])
        #expect(try emails("status=disabled") == ["A_D@example.com"])
        #expect(try emails("status=unconfirmed") == ["a%c@example.com"])
        #expect(try emails("status=confirmed&email_prefix=a_") == ["a_b@example.com"])
        #expect(try emails("created_after=2999-01-01T00:00:00Z").isEmpty)
        #expect(try emails("cursor=&limit=200").count == 4, "an empty cursor is the first page")
    }

    @Test func thePrefixFilterUsesTheIndex() throws {
        let app = try TestApp()
        defer { app.stop() }
        try app.seedUsers(2000, prefix: "user")
        try app.pool.query("ANALYZE users")
        let plan = try app.pool.query("""
            EXPLAIN SELECT id FROM users u WHERE true AND u.email_key LIKE $1 ORDER BY u.created_at, u.id LIMIT 51
            """, [#"user1\_%"#]).map { try $0.decode(String.self, column: 0) }.joined(separator: "\n")
        #expect(plan.contains("users_email_key_prefix"), "\(plan)")
    }

    @Test func badQueriesAreRefusedAndAUserIsShownById() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("reader", [.usersRead])
        for (query, code) in [("limit=0", "invalid_query"), ("limit=201", "invalid_query"), ("limit=x", "invalid_query"),
                              ("cursor=bm9wZQ", "invalid_cursor"), ("cursor=%21", "invalid_cursor"),
                              ("status=locked", "invalid_query"), ("created_after=yesterday", "invalid_query"),
                              ("sort=email", "invalid_query"), ("limit=1&limit=2", "invalid_query"),
                              ("created_after=", "invalid_query"), ("limit=", "invalid_query"),
                              ("status=", "invalid_query")] {
            let response = try app.admin("GET", "/admin/v1/users?\(query)", key: key)
            #expect(response.status == 400 && response.text.contains(#""code":"\#(code)""#), "\(query): \(response.text)")
        }
        _ = try app.signUp("ann@example.com", "correct horse battery")
        let id = try #require(try app.pool.query("SELECT id::text FROM users").first?.decode(String.self, column: 0))
        let shown = try app.admin("GET", "/admin/v1/users/\(id)", key: key)
        #expect(shown.status == 200)
        #expect(shown.text.contains(#""email":"ann@example.com""#) && shown.text.contains(#""status":"unconfirmed""#))
        #expect(shown.text.contains(#""mfa_enabled":false"#) && shown.text.contains(#""passkeys":0"#))
        #expect(!shown.text.contains("argon2") && !shown.text.contains("password"))
        #expect(try app.admin("GET", "/admin/v1/users/\(id)?x=1", key: key).status == 400)
        for missing in ["00000000-0000-0000-0000-000000000000", "not-a-uuid"] {
            let response = try app.admin("GET", "/admin/v1/users/\(missing)", key: key)
            #expect(response.status == 404 && response.text.contains(#""code":"user_not_found""#))
        }
    }

    @Test func aLinkIsIssuedLikeLatchctlsAndRefusedWhereItCouldNeverBeRedeemed() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support", [.linksIssue])
        _ = try app.signUp("ann@example.com", "correct horse battery")
        let id = try #require(try app.pool.query("SELECT id::text FROM users").first?.decode(String.self, column: 0))
        struct Link: Decodable {
            let link: String
            let code: String
            let expires_at: String
        }
        let issued = try app.admin("POST", "/admin/v1/users/\(id)/links", key: key, json: #"{"purpose":"confirm"}"#)
        #expect(issued.status == 201, "\(issued.text)")
        let link = try issued.json(Link.self)
        let token = try #require(URLComponents(string: link.link)?.queryItems?.first { $0.name == "token" }?.value)
        #expect(link.link.hasPrefix(TestApp.linkBase + "/confirmAuth?token="))
        #expect(try app.confirm(token).status == 200)

        let again = try app.admin("POST", "/admin/v1/users/\(id)/links", key: key, json: #"{"purpose":"confirm"}"#)
        #expect(again.status == 409 && again.text.contains(#""code":"already_confirmed""#))
        let reset = try app.admin("POST", "/admin/v1/users/\(id)/links", key: key, json: #"{"purpose":"reset"}"#)
        #expect(reset.status == 201)
        for body in [#"{"purpose":"emailChange"}"#, #"{"purpose":"reset","send":true}"#, #"{}"#] {
            let refused = try app.admin("POST", "/admin/v1/users/\(id)/links", key: key, json: body)
            #expect(refused.status == 422, "\(body): \(refused.text)")
        }
        let unknown = try app.admin("POST", "/admin/v1/users/00000000-0000-0000-0000-000000000000/links", key: key,
                                    json: #"{"purpose":"reset"}"#)
        #expect(unknown.status == 404)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'token_issued_by_cli' AND detail->>'actor' = 'apikey:support'
            """) == 2)
    }

    @Test func sessionsAreListedAndEndedLikeLatchctlDoes() throws {
        let app = try TestApp()
        defer { app.stop() }
        let reader = try app.adminKey("reader", [.usersRead])
        let revoker = try app.adminKey("revoker", [.sessionsRevoke])
        _ = try app.signUp("ann@example.com", "correct horse battery")
        try app.pool.query("UPDATE users SET email_confirmed_at = now()")
        let signedIn = try app.signIn("ann@example.com", "correct horse battery")
        #expect(signedIn.status == 200, "\(signedIn.text)")
        let id = try #require(try app.pool.query("SELECT id::text FROM users").first?.decode(String.self, column: 0))

        let listed = try app.admin("GET", "/admin/v1/users/\(id)/sessions", key: reader)
        #expect(listed.status == 200 && listed.text.contains(#""current":false"#), "\(listed.text)")
        let ended = try app.admin("DELETE", "/admin/v1/users/\(id)/sessions", key: revoker)
        #expect(ended.status == 200 && ended.text == #"{"revoked_sessions":1}"#, "\(ended.text)")
        #expect(try app.admin("GET", "/admin/v1/users/\(id)/sessions", key: reader).text == #"{"sessions":[]}"#)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'session_revoked' AND detail->>'actor' = 'apikey:revoker'
              AND detail->>'source' = 'admin_api'
            """) == 1)
        let unknown = try app.admin("DELETE", "/admin/v1/users/00000000-0000-0000-0000-000000000000/sessions",
                                    key: revoker)
        #expect(unknown.status == 404)
    }
}
