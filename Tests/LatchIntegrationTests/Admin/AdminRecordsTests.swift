import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// `GET /admin/v1/audit`, `GET /admin/v1/outbox` and `POST /admin/v1/outbox/{id}/retry` on PostgreSQL.
@Suite struct AdminRecordsTests {
    struct AuditPage: Decodable {
        struct Entry: Decodable {
            let id: Int64
            let event: String
            let user_id: String?
            let detail: [String: String]
        }

        let entries: [Entry]
        let next_cursor: String?
    }

    struct OutboxPage: Decodable {
        struct Mail: Decodable {
            let id: Int64
            let kind: String
            let recipient: String
            let state: String
        }

        let mails: [Mail]
        let next_cursor: String?
    }

    /// Every page of `target` followed by its `Link` header, which must agree with `next_cursor`.
    static func allPages<Page: Decodable>(_ app: TestApp, _ target: String, key: String, _ type: Page.Type,
                                          cursor: (Page) -> String?) throws -> [Page] {
        var pages: [Page] = []
        var target = target
        while true {
            let response = try app.admin("GET", target, key: key)
            guard response.status == 200 else { throw AdminUsersTests.PageFailed(response: response.text) }
            let page = try response.json(Page.self)
            pages.append(page)
            guard let next = cursor(page) else {
                #expect(response.header("Link") == nil)
                return pages
            }
            let link = try #require(response.header("Link"))
            #expect(link.contains("cursor=\(next)>; rel=\"next\""), "\(link)")
            target = String(link.dropFirst().prefix { $0 != ">" })
        }
    }

    @Test func auditPagesAreNewestFirstEachRowOnceAndFilterByUserAndEvent() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("auditor", [.auditRead])
        try app.sql("""
            INSERT INTO audit_log (at, user_id, event, detail)
            SELECT now(), CASE WHEN n % 3 = 0 THEN '11111111-1111-4111-8111-111111111111'::uuid END,
                   CASE WHEN n % 2 = 0 THEN 'sign_in_succeeded' ELSE 'sign_in_failed' END, jsonb_build_object('n', n::text)
            FROM generate_series(1, 230) AS n
            """)
        let pages = try Self.allPages(app, "/admin/v1/audit?limit=50", key: key, AuditPage.self) { $0.next_cursor }
        let ids = pages.flatMap { $0.entries.map(\.id) }
        let seeded = pages.flatMap(\.entries).filter { $0.detail["n"] != nil }
        #expect(seeded.count == 230 && Set(seeded.map(\.id)).count == 230, "each row exactly once")
        #expect(ids == ids.sorted(by: >), "newest first")
        #expect(pages.count >= 5)
        // The reads themselves are audited (admin_api_read), after each page was read: none of them is listed.
        #expect(!pages.flatMap(\.entries).contains { $0.event == "admin_api_read" })

        let user = try Self.allPages(app, "/admin/v1/audit?user_id=11111111-1111-4111-8111-111111111111&limit=200",
                                     key: key, AuditPage.self) { $0.next_cursor }.flatMap(\.entries)
        #expect(user.count == 76 && user.allSatisfy { $0.user_id == "11111111-1111-4111-8111-111111111111" })
        let failed = try Self.allPages(app, "/admin/v1/audit?event=sign_in_failed&limit=200&cursor=",
                                       key: key, AuditPage.self) { $0.next_cursor }.flatMap(\.entries)
        #expect(failed.count == 115 && failed.allSatisfy { $0.event == "sign_in_failed" })

        let none = try app.admin("GET", "/admin/v1/audit?event=no_such_event", key: key)
        #expect(try none.status == 200 && none.json(AuditPage.self).entries.isEmpty, "a name no row has: \(none.text)")
        for (query, code) in [("event=Sign_Up", "invalid_query"), ("user_id=42", "invalid_query"),
                              ("cursor=abc", "invalid_cursor"), ("cursor=-5", "invalid_cursor"),
                              ("limit=0", "invalid_query"), ("limit=201", "invalid_query"), ("email=a", "invalid_query"),
                              ("event=sign_up&event=sign_up", "invalid_query")] {
            let response = try app.admin("GET", "/admin/v1/audit?\(query)", key: key)
            #expect(response.status == 400 && ErrorJSON.code(response) == code, "\(query): \(response.text)")
        }
    }

    /// A mail row as the outbox holds it: waiting for its next attempt an hour away, given up, or sent.
    static func mail(_ app: TestApp, _ recipient: String, state: String) throws -> Int64 {
        try app.pool.query("""
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, next_attempt_at, attempts, sent_at,
                                failed_at, last_error)
            SELECT 'confirm_email', $1::text, s.subject, s.body, s.body, now() + interval '1 hour', 1,
                   CASE WHEN $2::text = 'sent' THEN now() END, CASE WHEN $2::text = 'failed' THEN now() END,
                   CASE WHEN $2::text = 'failed' THEN '550 no such user' END
            FROM (SELECT CASE WHEN $2::text IN ('sent', 'failed') THEN NULL ELSE 'Confirm' END AS subject,
                         CASE WHEN $2::text IN ('sent', 'failed') THEN NULL ELSE 'secret-token-body' END AS body) s
            RETURNING id
            """, [recipient, state]).scalar(Int64.self) ?? 0
    }

    @Test func theOutboxListsEnvelopesByStateAndRetriesOneWaitingMail() throws {
        let app = try TestApp()
        defer { app.stop() }
        let key = try app.adminKey("ops", [.outboxRead, .outboxRetry])
        let waiting = try Self.mail(app, "wait@example.com", state: "waiting")
        let failed = try Self.mail(app, "failed@example.com", state: "failed")
        _ = try Self.mail(app, "sent@example.com", state: "sent")

        let listed = try app.admin("GET", "/admin/v1/outbox?state=failed", key: key)
        #expect(listed.status == 200, "\(listed.text)")
        let failedPage = try listed.json(OutboxPage.self)
        #expect(failedPage.mails.map(\.id) == [failed] && failedPage.mails[0].state == "failed")
        let pending = try app.admin("GET", "/admin/v1/outbox?state=pending", key: key).json(OutboxPage.self)
        #expect(pending.mails.map(\.recipient) == ["wait@example.com"])
        let everything = try app.admin("GET", "/admin/v1/outbox", key: key)
        #expect(!everything.text.contains("secret-token-body") && !everything.text.contains("Confirm"),
                "envelopes only: \(everything.text)")
        let paged = try Self.allPages(app, "/admin/v1/outbox?limit=1", key: key, OutboxPage.self) { $0.next_cursor }
        #expect(paged.flatMap(\.mails).count == 3 && paged.count == 3)

        let retried = try app.admin("POST", "/admin/v1/outbox/\(waiting)/retry", key: key)
        #expect(retried.status == 200 && retried.text == #"{"retried":1}"#, "\(retried.text)")
        let dueOrSent = try app.count(
            "SELECT count(*)::int8 FROM outbox WHERE id = $1 AND (next_attempt_at <= now() OR sent_at IS NOT NULL)",
            [waiting])
        #expect(dueOrSent == 1, "due now, or sent already")
        for (id, status, code) in [(failed, 409, "mail_unrecoverable"), (999_999, 404, "mail_not_found")] as [(Int64, Int, String)] {
            let response = try app.admin("POST", "/admin/v1/outbox/\(id)/retry", key: key)
            #expect(response.status == status && ErrorJSON.code(response) == code, "\(id): \(response.text)")
        }
        let sent = try app.pool.query("SELECT id FROM outbox WHERE recipient = 'sent@example.com'").scalar(Int64.self) ?? 0
        let again = try app.admin("POST", "/admin/v1/outbox/\(sent)/retry", key: key)
        #expect(again.status == 409 && ErrorJSON.code(again) == "mail_not_waiting", "\(again.text)")
        for bad in ["abc", "0", "-1", "99999999999999999999"] {
            let response = try app.admin("POST", "/admin/v1/outbox/\(bad)/retry", key: key)
            #expect(response.status == 404 && ErrorJSON.code(response) == "mail_not_found", "\(bad): \(response.text)")
        }
        #expect(try app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event = 'outbox_retried' AND detail->>'actor' = 'apikey:ops'
              AND detail->>'outbox_id' = $1::text
            """, [String(waiting)]) == 1)
        let badState = try app.admin("GET", "/admin/v1/outbox?state=lost", key: key)
        #expect(badState.status == 400 && ErrorJSON.code(badState) == "invalid_query")
    }
}
