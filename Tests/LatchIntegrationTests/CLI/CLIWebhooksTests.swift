import AuthCore
import Foundation
import LatchCrypto
import LatchTestSupport
import PostgresClient
import Testing

/// `latchctl webhooks …` with the real binary against PostgreSQL: secrets shown once and stored sealed, URL and
/// event type checks, disable/enable, rotation's previous secret, deliveries and replay on inserted rows, removal,
/// and the operator's audit rows.
@Suite(.serialized) struct CLIWebhooksTests {
    /// Opens a sealed secret as the delivery side does (`WebhookSecretSealer`: nonce || ciphertext || tag under the
    /// webhook key of the server secret, bound to the endpoint id), independently of latchctl's code.
    static func open(_ sealed: Data, endpoint: String) throws -> String {
        let key = SecretKeyDeriver(secret: try ServerSecret(base64: TestSecret.base64)).key(for: .webhookSecretEncryption)
        let box = AESGCM.SealedBox(ciphertext: Data(sealed.dropFirst(AESGCM.nonceByteCount)),
                                   nonce: Data(sealed.prefix(AESGCM.nonceByteCount)))
        let bytes = try AESGCM.open(box, key: key, associatedData: Data("webhook-endpoint:\(endpoint)".utf8))
        return "whsec_" + bytes.base64EncodedString()
    }

    static func sealed(_ app: TestApp, _ id: String) throws -> (current: Data, previous: Data?, until: Date?) {
        let row = try #require(try app.pool.query("""
            SELECT secret_sealed, previous_secret_sealed, previous_secret_until FROM webhook_endpoints WHERE id = $1::uuid
            """, [id]).first)
        return (try row.decode(Data.self, column: 0), try row.decode(Data?.self, column: 1),
                try row.decode(Date?.self, column: 2))
    }

    static func secret(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst("secret: ".count)) }
    }

    @Test func addPrintsASealedSecretOnceAndListShowsTheEndpoint() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)

        let added = try latchctl("webhooks", "add", "https://hooks.example.com/latch?token=receiver-own",
                                 "--events", "user.created,session.revoked", "--description", "CRM",
                                 "--actor", "ops-ana")
        #expect(added.status == 0, "\(added)")
        let secret = try #require(Self.secret(in: added.standardOutput), "\(added)")
        #expect(secret.hasPrefix("whsec_") && added.standardOutput.contains("never shown again"))
        let id = try #require(added.standardOutput.split(separator: " ").dropFirst(3).first.map(String.init))
        let stored = try Self.sealed(app, id)
        #expect(try Self.open(stored.current, endpoint: id) == secret)
        #expect(stored.previous == nil && stored.until == nil)
        #expect(!stored.current.base64EncodedString().contains(secret.dropFirst(6)),
                "no plaintext secret in the row")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM webhook_endpoints
            WHERE event_types = 'user.created session.revoked' AND description = 'CRM'
              AND position(convert_to($1, 'UTF8') IN secret_sealed) = 0
            """, [secret]) == 1)

        let json = try latchctl("webhooks", "add", "http://127.0.0.1:9/hook", "--json").jsonObject()
        let jsonID = try #require(json["id"] as? String)
        #expect(json["url"] as? String == "http://127.0.0.1:9/hook" && json["events"] as? String == "all")
        #expect(try Self.open(try Self.sealed(app, jsonID).current, endpoint: jsonID) == json["secret"] as? String)

        let list = try latchctl("webhooks", "list")
        #expect(list.status == 0, "\(list)")
        #expect(!list.standardOutput.contains("whsec_"), "list never shows a secret")
        let lines = list.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(id) && $0.contains("user.created,session.revoked") && $0.contains("enabled") })
        #expect(lines.contains { $0.hasPrefix(jsonID) && $0.contains("  all  ") })
        let listed = try latchctl("webhooks", "list", "--json").jsonObject()
        let endpoints = try #require(listed["endpoints"] as? [[String: Any]])
        #expect(endpoints.compactMap { $0["id"] as? String } == [id, jsonID])
        #expect(endpoints.allSatisfy { $0["secret"] == nil })

        // Audited with the operator, the endpoint and only the host: no secret, no path or query.
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'webhook_endpoint_added' AND user_id IS NULL
              AND detail->>'actor' = 'ops-ana' AND detail->>'source' = 'latchctl' AND detail->>'endpoint_id' = $1
              AND detail->>'host' = 'hooks.example.com'
            """, [id]) == 1)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event LIKE 'webhook%'
              AND (detail::text LIKE '%whsec_%' OR detail::text LIKE '%receiver-own%')
            """) == 0)
    }

    @Test func badURLsAndEventTypesAreUsageErrors() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let unknown = try latchctl("webhooks", "add", "https://hooks.example.com/", "--events", "user.created,user.hacked")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.standardError.contains("user.hacked") && unknown.standardError.contains("session.revoked"))
        for url in ["http://hooks.example.com/", "ftp://hooks.example.com/", "https://user:pw@hooks.example.com/",
                    "hooks.example.com"] {
            let refused = try latchctl("webhooks", "add", url)
            #expect(refused.status == 2, "\(url): \(refused)")
            #expect(!refused.standardOutput.contains("whsec_"))
        }
        let badID = try latchctl("webhooks", "disable", "nope")
        #expect(badID.status == 2, "\(badID)")
        let missing = try latchctl("webhooks", "enable", UUID().uuidString)
        #expect(missing.status == 1 && missing.standardError.contains("no webhook endpoint"), "\(missing)")
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_endpoints") == 0)
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE event LIKE 'webhook%'") == 0)
    }

    @Test func disableEnableRotateReplayAndRemove() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let added = try latchctl("webhooks", "add", "https://hooks.example.com/x", "--json").jsonObject()
        let id = try #require(added["id"] as? String)
        let first = try #require(added["secret"] as? String)

        let disabled = try latchctl("webhooks", "disable", id, "--reason", "receiver down", "--actor", "ops-bo")
        #expect(disabled.status == 0, "\(disabled)")
        #expect(try latchctl("webhooks", "list").standardOutput.contains("disabled: receiver down"))
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_endpoints WHERE disabled_at IS NOT NULL") == 1)
        let enabled = try latchctl("webhooks", "enable", id, "--actor", "ops-bo")
        #expect(enabled.status == 0, "\(enabled)")
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_endpoints WHERE disabled_at IS NULL") == 1)

        // Rotation: the new secret is current, the first one previous for about 24 hours.
        let rotated = try latchctl("webhooks", "rotate-secret", id, "--actor", "ops-bo")
        #expect(rotated.status == 0, "\(rotated)")
        let second = try #require(Self.secret(in: rotated.standardOutput))
        #expect(second != first && second.hasPrefix("whsec_"))
        let stored = try Self.sealed(app, id)
        #expect(try Self.open(stored.current, endpoint: id) == second)
        #expect(try Self.open(try #require(stored.previous), endpoint: id) == first)
        let hours = try #require(stored.until).timeIntervalSinceNow / 3600
        #expect(hours > 23.9 && hours <= 24.01, "\(hours)")

        // Deliveries and replay on rows as the trigger and the worker leave them.
        let user = UUID().uuidString.lowercased()
        for (n, state) in [(1, "delivered"), (2, "failed"), (3, "pending")] {
            let event = "msg_" + String(repeating: String(n), count: 32)
            try app.sql("""
                INSERT INTO webhook_events (id, audit_id, type, user_id, payload, created_at)
                VALUES ($1, $2, 'user.created', $3::uuid, '{}', now() - interval '30 minutes')
                """, [event, Int64(1_000 + n), user])
            try app.sql("""
                INSERT INTO webhook_deliveries (event_id, endpoint_id, attempts, next_attempt_at, delivered_at,
                                                failed_at, last_status, last_error)
                VALUES ($1, $2::uuid, 3, now(), CASE WHEN $3 = 'delivered' THEN now() END,
                        CASE WHEN $3 = 'failed' THEN now() END, CASE WHEN $3 = 'failed' THEN 503 END,
                        CASE WHEN $3 = 'failed' THEN 'HTTP 503' END)
                """, [event, id, state])
        }
        let all = try latchctl("webhooks", "deliveries", id)
        #expect(all.status == 0, "\(all)")
        #expect(all.standardOutput.split(separator: "\n").count == 4, "a header and three: \(all.standardOutput)")
        let failed = try latchctl("webhooks", "deliveries", id, "--failed", "--json").jsonArray()
        #expect(failed.count == 1 && failed.first?["last_status"] as? Int == 503
                && failed.first?["last_error"] as? String == "HTTP 503")
        #expect(try latchctl("webhooks", "deliveries", id, "--limit", "1", "--json").jsonArray().count == 1)

        let tooRecent = try latchctl("webhooks", "replay", id, "--since", "10m", "--json").jsonObject()
        #expect(tooRecent["deliveries"] as? Int == 0)
        #expect(try latchctl("webhooks", "replay", id, "--since", "yesterday").status == 2)
        #expect(try latchctl("webhooks", "replay", id).status == 2)
        let since = Date().addingTimeInterval(-3600).formatted(.iso8601)
        let replayed = try latchctl("webhooks", "replay", id, "--since", since, "--actor", "ops-bo")
        #expect(replayed.status == 0 && replayed.standardOutput.contains("queued 2 deliveries"), "\(replayed)")
        #expect(try app.count("""
            SELECT count(*)::int8 FROM webhook_deliveries WHERE endpoint_id = $1::uuid AND attempts = 0
              AND delivered_at IS NULL AND failed_at IS NULL
            """, [id]) == 2)

        // Removal asks for --yes without a terminal.
        let unconfirmed = try latchctl("webhooks", "remove", id)
        #expect(unconfirmed.status == 2, "\(unconfirmed)")
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_endpoints") == 1)
        let removed = try latchctl("webhooks", "remove", id, "--yes", "--actor", "ops-bo")
        #expect(removed.status == 0, "\(removed)")
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_endpoints") == 0)
        #expect(try app.count("SELECT count(*)::int8 FROM webhook_deliveries") == 0)

        let events = try app.pool.query("""
            SELECT event FROM audit_log WHERE detail->>'actor' = 'ops-bo' AND detail->>'endpoint_id' = $1 ORDER BY id
            """, [id]).map { try $0.decode(String.self, column: 0) }
        #expect(events == ["webhook_endpoint_disabled", "webhook_endpoint_enabled", "webhook_endpoint_secret_rotated",
                           "webhook_replayed", "webhook_endpoint_removed"])
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'webhook_replayed' AND detail->>'deliveries' = '2'
            """) == 1)
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event LIKE 'webhook%' AND detail::text LIKE '%whsec_%'
            """) == 0)
    }
}
