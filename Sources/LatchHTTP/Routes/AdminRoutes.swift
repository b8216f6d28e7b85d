import AuthCore
import Foundation
import HTTPServer

/// The admin API under `/admin/v1`, for the private listener only (ARCHITECTURE.md, "Admin API"). Every call
/// presents an admin API key with the route's scope (`AdminAPIKeys.authenticate`); every call that succeeds leaves
/// an audit row naming the key: reads one of their own, writes the row of their operation (`AdminOperations`,
/// latchctl's implementation, with the key as the actor).
struct AdminRoutes: Sendable {
    let context: RouteContext
    let keys: AdminAPIKeys
    let directory: any AdminUserDirectory
    let records: any AdminRecords

    static let usersParameters = ["limit", "cursor", "email", "email_prefix", "created_after", "status"]
    static let auditParameters = ["limit", "cursor", "user_id", "event"]
    static let outboxParameters = ["limit", "cursor", "state"]
    static let defaultLimit = 50

    func register(on router: inout Router) {
        router.get("/admin/v1/users", handler: read(.usersRead, route: "/admin/v1/users", listUsers))
        router.get("/admin/v1/users/:id", handler: read(.usersRead, route: "/admin/v1/users/:id", user))
        router.post("/admin/v1/users/:id/links", handler: write(.linksIssue, issueLink))
        router.get("/admin/v1/users/:id/sessions", handler: read(.usersRead, route: "/admin/v1/users/:id/sessions", sessions))
        router.delete("/admin/v1/users/:id/sessions", handler: write(.sessionsRevoke, revokeSessions))
        router.patch("/admin/v1/users/:id", handler: write(.usersWrite, updateUser))
        router.delete("/admin/v1/users/:id", handler: write(.usersWrite, deleteUser))
        router.delete("/admin/v1/users/:id/mfa", handler: write(.mfaReset, resetSecondFactor))
        router.post("/admin/v1/invites", handler: write(.usersWrite, invite))
        router.get("/admin/v1/audit", handler: read(.auditRead, route: "/admin/v1/audit", audit))
        router.get("/admin/v1/outbox", handler: read(.outboxRead, route: "/admin/v1/outbox", outbox))
        router.post("/admin/v1/outbox/:id/retry", handler: write(.outboxRetry, retryMail))
    }

    // MARK: - Handlers

    /// 200 a page of users by (created_at, id), `next_cursor` and a `Link: rel="next"` header while more follow.
    func listUsers(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> (HTTPResponse, UserID?) {
        let query = try AdminQuery(request, allowed: Self.usersParameters)
        let limit = try query.integer("limit", in: AdminUserQuery.limits) ?? Self.defaultLimit
        var cursor: AdminUserCursor?
        // `cursor=` is the first page, so a client can always send the parameter.
        if let text = query["cursor"], !text.isEmpty {
            guard let decoded = AdminUserCursor(text: text) else { throw AdminQueryError.invalidCursor }
            cursor = decoded
        }
        var status: AdminUserQuery.Status?
        if let text = query["status"] {
            guard let parsed = AdminUserQuery.Status(rawValue: text) else { throw AdminQueryError.invalidParameter("status") }
            status = parsed
        }
        let email = try query.text("email", maxBytes: FieldLimits.emailBytes)
        let page = try directory.adminUsers(AdminUserQuery(
            limit: limit + 1, after: cursor, email: email.map { EmailAddress(lookup: $0) },
            emailPrefix: try query.text("email_prefix", maxBytes: FieldLimits.emailBytes),
            createdAfter: try query.instant("created_after"), status: status))
        let users = page.prefix(limit)
        let next = page.count > limit ? users.last?.cursor.text : nil
        var response = APIJSON.response(AdminUserPageResponse(users: users.map(AdminUserResponse.init),
                                                             nextCursor: next))
        if let next {
            let target = "/admin/v1/users?" + query.nextPageQuery(Self.usersParameters, cursor: next)
            response.headers.add(name: "Link", value: "<\(target)>; rel=\"next\"")
        }
        return (response, nil)
    }

    /// 200 the user; 404 `user_not_found`.
    func user(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> (HTTPResponse, UserID?) {
        _ = try AdminQuery(request, allowed: [])
        let id = try userID(request)
        guard let view = try directory.adminUser(id: id) else { throw AdminOperations.Failure.unknownUserID(id) }
        return (APIJSON.response(AdminUserResponse(view: view)), id)
    }

    /// 201 `{"link", "code", "expires_at"}`: `latchctl link` over HTTP, without mail (the caller hands it over).
    func issueLink(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        let id = try userID(request)
        let body = try AdminLinkBody.decode(from: request)
        guard let purpose = body.tokenPurpose else { throw APIError.invalidField("purpose") }
        let issued = try operations(key).issueLink(userID: id, purpose: purpose, send: false)
        return APIJSON.response(
            AdminLinkResponse(link: issued.universalURL.absoluteString, code: issued.code, expiresAt: issued.expiresAt),
            status: .created)
    }

    /// 200 `{"sessions": […]}`: the user's live sessions, newest first (none is `current`).
    func sessions(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> (HTTPResponse, UserID?) {
        _ = try AdminQuery(request, allowed: [])
        let id = try userID(request)
        return (APIJSON.response(SessionListResponse(try operations(key).liveSessions(userID: id), current: nil)), id)
    }

    /// 200 `{"revoked_sessions": n}`: every live session of the user ended (latchctl sessions revoke --all).
    func revokeSessions(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        let revoked = try operations(key).revokeAllSessions(userID: try userID(request))
        return APIJSON.response(["revoked_sessions": revoked])
    }

    /// 200 the user as now stored. The fields apply in a fixed order, each in its operation's own transaction
    /// and audited by it: the address first (the one that can be refused, `email_taken`, before anything else
    /// changed), then the language, then `disabled`. An address left to confirm gets a confirmation mail unless
    /// the account ends disabled.
    func updateUser(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        let id = try userID(request)
        let body = try AdminUserPatchBody.decode(from: request)
        let operations = operations(key)
        _ = try operations.user(id: id)
        if let email = body.email {
            _ = try operations.setEmail(userID: id, to: email, confirmed: body.emailConfirmed ?? false)
        }
        if let locale = body.locale { _ = try operations.setLocale(userID: id, locale: locale) }
        switch body.disabled {
        case true?: _ = try operations.disable(userID: id)
        case false?: _ = try operations.enable(userID: id)
        case nil: break
        }
        if body.email != nil, body.emailConfirmed != true, try operations.user(id: id).disabledAt == nil {
            _ = try operations.issueLink(userID: id, purpose: .confirm, send: true)
        }
        guard let view = try directory.adminUser(id: id) else { throw AdminOperations.Failure.unknownUserID(id) }
        return APIJSON.response(AdminUserResponse(view: view))
    }

    /// 204: the account deleted as a self-service deletion deletes it (the owner gets the last notice).
    func deleteUser(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        _ = try operations(key).deleteUser(userID: try userID(request))
        return .empty()
    }

    /// 200 `{"removed_factors", "revoked_sessions", "mail_queued"}` (`latchctl mfa reset`).
    func resetSecondFactor(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        let reset = try operations(key).resetSecondFactor(userID: try userID(request))
        return APIJSON.response(AdminSecondFactorResetResponse(reset: reset))
    }

    /// 201 `{"user", "expires_at"}`: the account without a password and its invitation mailed; 409 `email_taken`.
    func invite(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        let body = try AdminInviteBody.decode(from: request)
        let invitation = try operations(key).invite(email: body.email, locale: body.locale)
        guard let view = try directory.adminUser(id: invitation.user.id) else {
            throw AdminOperations.Failure.unknownUserID(invitation.user.id)
        }
        return APIJSON.response(AdminInviteResponse(user: AdminUserResponse(view: view), expiresAt: invitation.expiresAt),
                                status: .created)
    }

    /// 200 a page of audit rows, newest first, `next_cursor` and `Link: rel="next"` while more follow.
    func audit(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> (HTTPResponse, UserID?) {
        let query = try AdminQuery(request, allowed: Self.auditParameters)
        let limit = try query.integer("limit", in: AdminUserQuery.limits) ?? Self.defaultLimit
        var user: UserID?
        if let text = query["user_id"] {
            guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else {
                throw AdminQueryError.invalidParameter("user_id")
            }
            user = UserID(uuid)
        }
        // Any name of an event's form, not only this build's: rows of names an older build wrote stay findable.
        var event: String?
        if let text = query["event"] {
            guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy({
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_")
            }) else { throw AdminQueryError.invalidParameter("event") }
            event = text
        }
        let rows = try records.adminAudit(AdminAuditQuery(
            limit: limit + 1, before: try cursor(query), userID: user, event: event))
        return (page(rows, limit: limit, key: "entries", path: "/admin/v1/audit", query: query,
                     parameters: Self.auditParameters, id: \.id, item: AdminAuditEntryResponse.init), nil)
    }

    /// 200 a page of queued mail by envelope, newest first; `state` is pending, failed or sent.
    func outbox(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> (HTTPResponse, UserID?) {
        let query = try AdminQuery(request, allowed: Self.outboxParameters)
        let limit = try query.integer("limit", in: AdminUserQuery.limits) ?? Self.defaultLimit
        var state: OutboxState?
        if let text = query["state"] {
            guard let parsed = OutboxState(rawValue: text) else { throw AdminQueryError.invalidParameter("state") }
            state = parsed
        }
        let rows = try records.adminOutbox(AdminOutboxQuery(limit: limit + 1, before: try cursor(query), state: state))
        return (page(rows, limit: limit, key: "mails", path: "/admin/v1/outbox", query: query,
                     parameters: Self.outboxParameters, id: \.id, item: AdminOutboxEntryResponse.init), nil)
    }

    /// 200 `{"retried": 1}`: the mail is due now; 404 `mail_not_found`, 409 `mail_unrecoverable` or
    /// `mail_not_waiting` (`latchctl outbox retry ID`).
    func retryMail(_ request: HTTPRequest, _ key: AdminAPIKey) throws -> HTTPResponse {
        _ = try AdminQuery(request, allowed: [])
        guard let raw = request.parameters["id"], let id = AdminRowCursor.id(raw) else {
            throw AdminOperations.Failure.unknownMail(id: 0)
        }
        let result = try operations(key).retryOutbox(id: id, in: records)
        return APIJSON.response(["retried": result.retried])
    }

    // MARK: - Shared steps

    /// The page's `cursor`: absent or empty is the first page.
    private func cursor(_ query: AdminQuery) throws(AdminQueryError) -> Int64? {
        guard let text = query["cursor"], !text.isEmpty else { return nil }
        guard let id = AdminRowCursor.id(text) else { throw .invalidCursor }
        return id
    }

    /// A page of `limit` of `rows` (fetched one more, to know whether another page follows), its `next_cursor`
    /// and, while more follow, the `Link: rel="next"` header.
    private func page<Row, Item: Encodable>(
        _ rows: [Row], limit: Int, key: String, path: String, query: AdminQuery, parameters: [String],
        id: (Row) -> Int64, item: (Row) -> Item
    ) -> HTTPResponse {
        let shown = rows.prefix(limit)
        let next = rows.count > limit ? shown.last.map { AdminRowCursor.text(id($0)) } : nil
        var response = APIJSON.response(AdminRowPageResponse(itemsKey: key, items: shown.map(item), nextCursor: next))
        if let next {
            response.headers.add(name: "Link", value: "<\(path)?\(query.nextPageQuery(parameters, cursor: next))>; rel=\"next\"")
        }
        return response
    }

    /// latchctl's operations with the key as the operator.
    private func operations(_ key: AdminAPIKey) -> AdminOperations {
        AdminOperations(service: context.auth, actor: key.actor, source: AdminOperations.apiSource)
    }

    /// The path's user id; one that is no uuid names no user.
    private func userID(_ request: HTTPRequest) throws(AdminOperations.Failure) -> UserID {
        guard let raw = request.parameters["id"], raw.utf8.count == 36, let uuid = UUID(uuidString: raw) else {
            throw .unknownUserID(UserID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))))
        }
        return UserID(uuid)
    }

    /// The key of the call, checked against `scope`. A missing or malformed `Authorization` is a bad key like
    /// any other: one answer, counted against the address.
    private func authorize(_ request: HTTPRequest, _ scope: AdminScope) throws -> AdminAPIKey {
        let presented = try? BearerToken.parse(request.headers)
        return try keys.authenticate(presented, scope: scope, ip: context.clients.clientIP(request))
    }

    /// A read: authorized, answered, then audited (`admin_api_read`, with the user it was about if any).
    private func read(
        _ scope: AdminScope, route: String, _ handler: @escaping @Sendable (HTTPRequest, AdminAPIKey) throws
            -> (HTTPResponse, UserID?)
    ) -> HTTPHandler {
        { request in
            let key = try authorize(request, scope)
            let (response, userID) = try handler(request, key)
            try keys.recordRead(by: key, route: route, userID: userID, ip: context.clients.clientIP(request))
            return response
        }
    }

    /// A write: authorized, then the operation, which audits itself in its own transaction.
    private func write(
        _ scope: AdminScope, _ handler: @escaping @Sendable (HTTPRequest, AdminAPIKey) throws -> HTTPResponse
    ) -> HTTPHandler {
        { request in try handler(request, try authorize(request, scope)) }
    }
}
