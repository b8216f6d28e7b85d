import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// Who may call the admin API: a live key with the route's scope, on the private listener only; every call that
/// succeeds is audited with the key's name.
@Suite struct AdminAPIAuthTests {
    static let routes: [(method: String, path: String, json: String?, scope: AdminScope)] = [
        ("GET", "/admin/v1/users", nil, .usersRead),
        ("GET", "/admin/v1/users/:id", nil, .usersRead),
        ("POST", "/admin/v1/users/:id/links", #"{"purpose":"reset"}"#, .linksIssue),
        ("GET", "/admin/v1/users/:id/sessions", nil, .usersRead),
        ("DELETE", "/admin/v1/users/:id/sessions", nil, .sessionsRevoke),
    ]

    @Test func eachRouteNeedsALiveKeyWithItsScope() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUp("ann@example.com", "correct horse battery")
        let id = try #require(try app.pool.query("SELECT id::text FROM users").first?.decode(String.self, column: 0))
        let all = try app.adminKey("all", Set(AdminScope.allCases))
        for (index, route) in Self.routes.enumerated() {
            let path = route.path.replacingOccurrences(of: ":id", with: id)
            let without = try app.adminKey("without-\(index)", Set(AdminScope.allCases).subtracting([route.scope]))
            let only = try app.adminKey("only-\(index)", [route.scope])
            for key in [nil, "latch_admin_nope", all.dropLast() + "A"] as [String?] {
                let refused = try app.admin(route.method, path, key: key, json: route.json)
                #expect(refused.status == 401, "\(route.path) \(refused.text)")
                #expect(refused.text.contains(#""code":"invalid_api_key""#))
                #expect(refused.header("WWW-Authenticate") == "Bearer")
            }
            let forbidden = try app.admin(route.method, path, key: without, json: route.json)
            #expect(forbidden.status == 403 && forbidden.text.contains(#""code":"insufficient_scope""#), "\(route.path)")
            #expect(forbidden.header("WWW-Authenticate")?.contains(#"scope="\#(route.scope.rawValue)""#) == true)
            for key in [only, all] {
                let allowed = try app.admin(route.method, path, key: key, json: route.json)
                #expect([200, 201].contains(allowed.status), "\(route.path) \(allowed.text)")
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
                               ("DELETE", "/admin/v1/users/x/sessions"), ("GET", "/admin/v1/users?limit=1")] {
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
        _ = try app.signUp("ann@example.com", "correct horse battery")
        let id = try #require(try app.pool.query("SELECT id::text FROM users").first?.decode(String.self, column: 0))
        let key = try app.adminKey("support-tool", Set(AdminScope.allCases))
        for route in Self.routes {
            let path = route.path.replacingOccurrences(of: ":id", with: id)
            let before = try app.count("SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'")
            #expect([200, 201].contains(try app.admin(route.method, path, key: key, json: route.json).status))
            let after = try app.count("SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'")
            #expect(after == before + 1, "\(route.path)")
        }
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE detail->>'actor' = 'apikey:support-tool'
              AND detail->>'source' = 'admin_api'
            """) == Self.routes.count)
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
