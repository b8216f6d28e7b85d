import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// Who may call the admin API: a live key with the route's scope, on the private listener only; every call that
/// succeeds is audited with the key's name.
@Suite struct AdminAPIAuthTests {
    /// Every route, with the audit rows one successful call leaves. `:id` is a user made for the call, `:mail` a
    /// mail waiting for its next attempt, `:email` an address nobody has: each call may delete or use them up.
    static let routes: [(method: String, path: String, json: String?, scope: AdminScope, audits: Int)] = [
        ("GET", "/admin/v1/users", nil, .usersRead, 1),
        ("GET", "/admin/v1/users/:id", nil, .usersRead, 1),
        ("POST", "/admin/v1/users/:id/links", #"{"purpose":"reset"}"#, .linksIssue, 1),
        ("GET", "/admin/v1/users/:id/sessions", nil, .usersRead, 1),
        ("DELETE", "/admin/v1/users/:id/sessions", nil, .sessionsRevoke, 1),
        ("PATCH", "/admin/v1/users/:id", #"{"locale":"en"}"#, .usersWrite, 1),
        ("DELETE", "/admin/v1/users/:id", nil, .usersWrite, 1),
        ("DELETE", "/admin/v1/users/:id/mfa", nil, .mfaReset, 1),
        ("POST", "/admin/v1/invites", #"{"email":":email"}"#, .usersWrite, 2),
        ("GET", "/admin/v1/audit", nil, .auditRead, 1),
        ("GET", "/admin/v1/outbox?state=pending", nil, .outboxRead, 1),
        ("POST", "/admin/v1/outbox/:mail/retry", nil, .outboxRetry, 1),
    ]

    /// `route`'s path and body with fresh targets: a user made by SQL, a waiting mail, an unused address.
    static func target(_ route: (method: String, path: String, json: String?, scope: AdminScope, audits: Int),
                       _ app: TestApp) throws -> (path: String, json: String?) {
        let fresh = UUID().uuidString.lowercased()
        var path = route.path
        if path.contains(":id") {
            try app.pool.query("""
                INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at)
                VALUES ($1::uuid, $2::text, $2::text, '!', now(), now(), now())
                """, [fresh, "user-\(fresh)@example.com"])
            path = path.replacingOccurrences(of: ":id", with: fresh)
        }
        if path.contains(":mail") {
            let id = try app.pool.query("""
                INSERT INTO outbox (kind, recipient, subject, text_body, html_body, next_attempt_at, attempts)
                VALUES ('confirm', $1::text, 'Subject', 'text', '<p>html</p>', now() + interval '1 hour', 1)
                RETURNING id
                """, ["mail-\(fresh)@example.com"]).scalar(Int.self) ?? 0
            path = path.replacingOccurrences(of: ":mail", with: String(id))
        }
        return (path, route.json?.replacingOccurrences(of: ":email", with: "invitee-\(fresh)@example.com"))
    }

    @Test func eachRouteNeedsALiveKeyWithItsScope() throws {
        // Three refused keys a route: more than the default limit of refusals per address allows.
        let app = try TestApp(environment: ["LATCH_RATE_ADMIN_KEY_IP": "1000/1h"])
        defer { app.stop() }
        let all = try app.adminKey("all", Set(AdminScope.allCases))
        for (index, route) in Self.routes.enumerated() {
            let (path, json) = try Self.target(route, app)
            let without = try app.adminKey("without-\(index)", Set(AdminScope.allCases).subtracting([route.scope]))
            let only = try app.adminKey("only-\(index)", [route.scope])
            // The live key with its last character changed (to another one: "A" stays "A" one time in 64).
            let altered = String(all.dropLast()) + (all.hasSuffix("A") ? "B" : "A")
            for key in [nil, "latch_admin_nope", altered] as [String?] {
                let refused = try app.admin(route.method, path, key: key, json: json)
                #expect(refused.status == 401, "\(route.path) \(refused.text)")
                #expect(refused.text.contains(#""code":"invalid_api_key""#))
                #expect(refused.header("WWW-Authenticate") == "Bearer")
            }
            let forbidden = try app.admin(route.method, path, key: without, json: json)
            #expect(forbidden.status == 403 && forbidden.text.contains(#""code":"insufficient_scope""#), "\(route.path)")
            #expect(forbidden.header("WWW-Authenticate")?.contains(#"scope="\#(route.scope.rawValue)""#) == true)
            for key in [only, all] {
                let (path, json) = try Self.target(route, app)
                let allowed = try app.admin(route.method, path, key: key, json: json)
                #expect([200, 201, 204].contains(allowed.status), "\(route.path) \(allowed.text)")
            }
        }
    }

    @Test func aRevokedKeyIsRefusedOnTheVeryNextRequestAndAnExpiredOneToo() throws {
        let clock = ShiftedClock()
        let app = try TestApp(clock: clock)
        defer { app.stop() }
        let key = try app.adminKey("support", [.usersRead])
        #expect(try app.admin("GET", "/admin/v1/users", key: key).status == 200)
        let id = String(key.dropFirst("latch_admin_".count).prefix(16))
        _ = try AdminAPIKeys(service: app.application.service).revoke(id: id, actor: "test")
        #expect(try app.admin("GET", "/admin/v1/users", key: key).status == 401)

        let shortLived = try app.adminKey("short", [.usersRead], lifetime: 60)
        #expect(try app.admin("GET", "/admin/v1/users", key: shortLived).status == 200)
        clock.advance(by: 61)
        #expect(try app.admin("GET", "/admin/v1/users", key: shortLived).status == 401)
    }

    @Test func thePublicPortAnswers404ForEveryAdminPath() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("all", Set(AdminScope.allCases))
        for (method, path) in [("GET", "/admin/v1/users"), ("GET", "/admin/v1/users/00000000-0000-0000-0000-000000000000"),
                               ("POST", "/admin/v1/users/00000000-0000-0000-0000-000000000000/links"),
                               ("GET", "/admin/"), ("GET", "/admin"), ("GET", "/admin/v1/"), ("HEAD", "/admin/v1/users"),
                               ("DELETE", "/admin/v1/users/x/sessions"), ("GET", "/admin/v1/users?limit=1"),
                               ("PATCH", "/admin/v1/users/00000000-0000-0000-0000-000000000000"),
                               ("DELETE", "/admin/v1/users/00000000-0000-0000-0000-000000000000"),
                               ("DELETE", "/admin/v1/users/00000000-0000-0000-0000-000000000000/mfa"),
                               ("POST", "/admin/v1/invites"), ("GET", "/admin/v1/audit"), ("GET", "/admin/v1/outbox"),
                               ("POST", "/admin/v1/outbox/1/retry")] {
            let client = try app.client()
            defer { client.close() }
            let response = try client.send(method, path, headers: [("Authorization", "Bearer \(key)")])
            #expect(response.status == 404, "\(method) \(path)")
            #expect(method == "HEAD" || response.text.contains(#""code":"not_found""#), "no landing page: \(response.text)")
        }
    }

    @Test func everySuccessfulCallIsAuditedWithTheKeysName() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("support-tool", Set(AdminScope.allCases))
        for route in Self.routes {
            let (path, json) = try Self.target(route, app)
            let before = try app.count("SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'")
            #expect([200, 201, 204].contains(try app.admin(route.method, path, key: key, json: json).status))
            let after = try app.count("SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'")
            #expect(after == before + route.audits, "\(route.path)")
        }
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'
              AND detail->>'source' = 'admin_api'
            """) == Self.routes.map(\.audits).reduce(0, +))
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE detail::text LIKE '%' || $1 || '%'",
                              [String(key.suffix(43))]) == 0, "no audit row holds the secret")
        #expect(try app.count("SELECT count(*)::int8 FROM admin_api_keys WHERE last_used_at IS NOT NULL") == 1)
    }

    @Test func repeatedBadKeysAreRateLimitedPerAddress() throws {
        let app = try TestApp(environment: ["LATCH_RATE_ADMIN_KEY_IP": "5/1h"])
        defer { app.stop() }
        let limit = 5
        for _ in 0..<limit {
            #expect(try app.admin("GET", "/admin/v1/users", key: "latch_admin_guess").status == 401)
        }
        let limited = try app.admin("GET", "/admin/v1/users", key: "latch_admin_guess")
        #expect(limited.status == 429)
        #expect(limited.text.contains(#""code":"rate_limited""#))
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
    }
}
