import Foundation

extension AuthService {
    /// Sign-out (`POST /v1/signout`) of an authenticated session: this one, every one, or every other one;
    /// audited.
    public func signOut(_ authenticated: AuthenticatedUser, scope: SignOutScope, ip: String?) throws {
        let now = ports.clock.now()
        let session = authenticated.session
        var detail = ["scope": scope.rawValue, "session_id": session.id.description]
        switch scope {
        case .local:
            try ports.sessions.revokeSession(id: session.id, at: now)
        case .global, .others:
            let revoked = try ports.sessions.revokeAllSessions(
                userID: session.userID, except: scope == .others ? session.id : nil, at: now)
            detail["revoked_sessions"] = String(revoked)
        }
        try audit(.sessionRevoked, user: session.userID, ip: ip, detail: detail)
    }

    /// The signed-in user's live sessions (`GET /v1/sessions`), newest first.
    public func sessions(of authenticated: AuthenticatedUser) throws -> [SessionActivity] {
        try ports.accounts.liveSessions(userID: authenticated.session.userID, now: ports.clock.now())
    }

    /// Ends one of the signed-in user's sessions (`DELETE /v1/sessions/{id}`), the calling one included; audited.
    /// - Throws: `sessionNotFound` for an unknown, ended or someone else's session (alike: ids are no secret,
    ///   but whose they are is).
    public func revokeSession(_ id: SessionID, of authenticated: AuthenticatedUser, ip: String?) throws {
        let userID = authenticated.session.userID
        guard try ports.sessions.revokeSession(id: id, ofUser: userID, at: ports.clock.now()) else {
            throw AuthError.sessionNotFound
        }
        try audit(.sessionRevoked, user: userID, ip: ip, detail: ["scope": "one", "session_id": id.description])
    }
}
