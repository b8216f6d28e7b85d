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

    static let usersParameters = ["limit", "cursor", "email", "email_prefix", "created_after", "status"]
    static let defaultLimit = 50

    func register(on router: inout Router) {
        router.get("/admin/v1/users", handler: read(.usersRead, route: "/admin/v1/users", listUsers))
        router.get("/admin/v1/users/:id", handler: read(.usersRead, route: "/admin/v1/users/:id", user))
        router.post("/admin/v1/users/:id/links", handler: write(.linksIssue, issueLink))
        router.get("/admin/v1/users/:id/sessions", handler: read(.usersRead, route: "/admin/v1/users/:id/sessions", sessions))
        router.delete("/admin/v1/users/:id/sessions", handler: write(.sessionsRevoke, revokeSessions))
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

    // MARK: - Shared steps

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
