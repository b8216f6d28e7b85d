import Foundation

extension AuthService {
    /// Sign-out (`POST /v1/signout`) of an authenticated session: this one, every one, or every other one;
    /// audited.
    public func signOut(_ authenticated: AuthenticatedUser, scope: SignOutScope, ip: String?) throws {
        let now = ports.clock.now()
        let session = authenticated.session
        try ports.store.transaction { store in
            var detail = ["scope": scope.rawValue, "session_id": session.id.description]
            switch scope {
            case .local:
                try store.revokeSession(id: session.id, at: now)
            case .global, .others:
                let revoked = try store.revokeAllSessions(
                    userID: session.userID, except: scope == .others ? session.id : nil, at: now)
                detail["revoked_sessions"] = String(revoked)
            }
            try store.record(event(.sessionRevoked, user: session.userID, ip: ip, detail: detail))
        }
    }

    /// The signed-in user's live sessions (`GET /v1/sessions`), newest first.
    public func sessions(of authenticated: AuthenticatedUser) throws -> [SessionActivity] {
        try ports.store.liveSessions(userID: authenticated.session.userID, now: ports.clock.now())
    }

    /// Ends one of the signed-in user's sessions (`DELETE /v1/sessions/{id}`), the calling one included; audited.
    /// - Throws: `sessionNotFound` for an unknown, ended or someone else's session (alike: ids are no secret,
    ///   but whose they are is).
    public func revokeSession(_ id: SessionID, of authenticated: AuthenticatedUser, ip: String?) throws {
        let userID = authenticated.session.userID
        try ports.store.transaction { store in
            guard try store.revokeSession(id: id, ofUser: userID, at: ports.clock.now()) else {
                throw AuthError.sessionNotFound
            }
            try store.record(event(.sessionRevoked, user: userID, ip: ip,
                                   detail: ["scope": "one", "session_id": id.description]))
        }
    }
}
