import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The admin API's keys over the in-memory fakes: the key's text, the rule a presented key passes, scopes,
/// expiry, revocation, the failure limit, and the operator's audit rows.
@Suite struct AdminAPIKeysTests {
    let harness = Harness(configure: { $0.rateLimits.adminKeyPerIP = RateLimitRule(limit: 3, window: 60) })
    var keys: AdminAPIKeys { AdminAPIKeys(service: harness.service) }

    static let secret = String(repeating: "A", count: 42) + "_"

    @Test func theTextIsPrefixIDAndSecretAndParsesBackExactly() throws {
        let text = AdminAPIKeyText(id: "0123456789abcdef", secret: Self.secret)
        #expect(text.text == "latch_admin_0123456789abcdef_" + Self.secret)
        #expect(AdminAPIKeyText(parsing: text.text) == text)
        #expect(!"\(text)".contains(Self.secret), "interpolation never shows the secret")
    }

    @Test(arguments: [
        "", "latch_admin_", "latch_admin_0123456789abcdef", "latch_admin_0123456789abcdef_",
        "latch_admin_0123456789ABCDEF_" + secret, "latch_admin_0123456789abcde_x" + secret,
        "latch_admin_0123456789abcdef-" + secret, "latch_admin_0123456789abcdef_" + secret + "A",
        "latch_admin_0123456789abcdef_" + secret.dropLast() + "=", "LATCH_ADMIN_0123456789abcdef_" + secret,
        "latch_admin_0123456789abcdef_" + secret.dropLast() + "+", "xlatch_admin_0123456789abcdef_" + secret.dropLast(),
    ])
    func malformedTextIsNoKey(_ text: String) {
        #expect(AdminAPIKeyText(parsing: text) == nil)
    }

    @Test func theRuleNeedsTheDigestAndALiveKey() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let digest = Data(repeating: 7, count: 32)
        let key = AdminAPIKey(id: "0123456789abcdef", name: "support", scopes: [.usersRead], secretHash: digest,
                              createdAt: now.addingTimeInterval(-10), expiresAt: now.addingTimeInterval(10))
        let equals: (Data, Data) -> Bool = { $0 == $1 }
        #expect(AdminAPIKeys.accepts(key, secretDigest: digest, now: now, equals: equals))
        #expect(!AdminAPIKeys.accepts(key, secretDigest: Data(repeating: 8, count: 32), now: now, equals: equals))
        #expect(!AdminAPIKeys.accepts(key, secretDigest: digest, now: now.addingTimeInterval(10), equals: equals),
                "the expiry is exclusive")
        var revoked = key
        revoked.revokedAt = now.addingTimeInterval(-1)
        #expect(!AdminAPIKeys.accepts(revoked, secretDigest: digest, now: now, equals: equals))
        var forever = key
        forever.expiresAt = nil
        #expect(AdminAPIKeys.accepts(forever, secretDigest: digest, now: .distantFuture, equals: equals))
    }

    @Test func aCreatedKeyIsStoredAsItsDigestAndAudited() throws {
        let created = try keys.create(name: "support-tool", scopes: [.usersRead, .linksIssue], lifetime: 3600,
                                      actor: "opal")
        #expect(created.text.text.hasPrefix("latch_admin_\(created.key.id)_"))
        let stored = try #require(try harness.store.apiKey(id: created.key.id))
        #expect(stored.secretHash == harness.generator.digest(created.text.secret))
        #expect(stored.expiresAt == harness.clock.now().addingTimeInterval(3600))
        let event = try #require(harness.store.auditEvents.last)
        #expect(event.name == .adminAPIKeyCreated)
        #expect(event.detail["actor"] == "opal" && event.detail["name"] == "support-tool")
        #expect(event.detail["scopes"] == "links:issue users:read")
        #expect(!harness.auditStrings.contains { $0.contains(created.text.secret) })

        #expect(throws: AdminAPIKeys.Failure.nameTaken("support-tool")) {
            try keys.create(name: "support-tool", scopes: [.usersRead], lifetime: nil, actor: "opal")
        }
        #expect(throws: AdminAPIKeys.Failure.invalidName) {
            try keys.create(name: "-bad", scopes: [.usersRead], lifetime: nil, actor: "opal")
        }
        #expect(throws: AdminAPIKeys.Failure.invalidLifetime) {
            try keys.create(name: "other", scopes: [.usersRead], lifetime: 0, actor: "opal")
        }
    }

    @Test func aKeyPassesOnlyWithItsScopesWhileLive() throws {
        let created = try keys.create(name: "support", scopes: [.usersRead], lifetime: 600, actor: "opal")
        let key = try keys.authenticate(created.text.text, scope: .usersRead, ip: Harness.ip)
        #expect(key.id == created.key.id)
        #expect(throws: AdminAPIKeyRefusal.insufficientScope(.linksIssue)) {
            try keys.authenticate(created.text.text, scope: .linksIssue, ip: Harness.ip)
        }
        let wrongSecret = AdminAPIKeyText(id: created.key.id, secret: Self.secret).text
        #expect(throws: AdminAPIKeyRefusal.invalidKey) {
            try keys.authenticate(wrongSecret, scope: .usersRead, ip: Harness.ip)
        }
        harness.clock.advance(by: 600)
        #expect(throws: AdminAPIKeyRefusal.invalidKey) {
            try keys.authenticate(created.text.text, scope: .usersRead, ip: "198.51.100.1")
        }
    }

    @Test func aRevokedKeyIsRefusedOnItsNextCall() throws {
        let created = try keys.create(name: "support", scopes: [.usersRead], lifetime: nil, actor: "opal")
        _ = try keys.authenticate(created.text.text, scope: .usersRead, ip: Harness.ip)
        let revoked = try keys.revoke(id: created.key.id, actor: "opal")
        #expect(revoked.revokedAt == harness.clock.now())
        #expect(harness.store.auditEvents.last?.name == .adminAPIKeyRevoked)
        #expect(throws: AdminAPIKeyRefusal.invalidKey) {
            try keys.authenticate(created.text.text, scope: .usersRead, ip: Harness.ip)
        }
        #expect(throws: AdminAPIKeys.Failure.unknownKey(created.key.id)) {
            try keys.revoke(id: created.key.id, actor: "opal")
        }
    }

    @Test func refusalsPastTheLimitAreRateLimitedPerAddress() throws {
        for _ in 0..<3 {
            #expect(throws: AdminAPIKeyRefusal.invalidKey) { try keys.authenticate(nil, scope: .usersRead, ip: Harness.ip) }
        }
        #expect(throws: AuthError.rateLimited(retryAfter: 60)) {
            try keys.authenticate("latch_admin_nope", scope: .usersRead, ip: Harness.ip)
        }
        #expect(throws: AdminAPIKeyRefusal.invalidKey) { try keys.authenticate(nil, scope: .usersRead, ip: "198.51.100.1") }
    }

    @Test func lastUsedIsWrittenAtMostOnceAMinute() throws {
        let created = try keys.create(name: "support", scopes: [.usersRead], lifetime: nil, actor: "opal")
        let first = harness.clock.now()
        _ = try keys.authenticate(created.text.text, scope: .usersRead, ip: nil)
        harness.clock.advance(by: 30)
        _ = try keys.authenticate(created.text.text, scope: .usersRead, ip: nil)
        #expect(try harness.store.apiKey(id: created.key.id)?.lastUsedAt == first)
        harness.clock.advance(by: 30)
        _ = try keys.authenticate(created.text.text, scope: .usersRead, ip: nil)
        #expect(try harness.store.apiKey(id: created.key.id)?.lastUsedAt == harness.clock.now())
    }

    @Test func scopeListsParseStrictlyAndPrintSorted() throws {
        #expect(try AdminScope.parseList("users:read,links:issue,users:read", separator: ",") == [.usersRead, .linksIssue])
        #expect(throws: AdminScope.ListError.unknown("users:delete")) {
            try AdminScope.parseList("users:read,users:delete", separator: ",")
        }
        #expect(throws: AdminScope.ListError.empty) { try AdminScope.parseList(",", separator: ",") }
        #expect(AdminScope.listText(Set(AdminScope.allCases), separator: " ")
            == "audit:read links:issue mfa:reset outbox:read outbox:retry sessions:revoke users:read users:write")
    }
}
