import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func issueReauthenticationCode(_ code: NewReauthenticationCode, audit: AuditEvent?) throws {
        try locked { state in
            guard Self.liveSession(code.sessionID, of: code.userID, in: state) != nil else { return }
            state.reauthenticationCodes[code.sessionID] = ReauthenticationRow(
                userID: code.userID, codeDigest: code.codeDigest, expiresAt: code.expiresAt)
            state.outbox.append(code.mail)
            if var audit {
                audit.userID = code.userID
                state.audit.append(audit)
            }
        }
    }

    public func completeReauthentication(_ completion: ReauthenticationCompletion) throws -> ReauthenticationResult {
        try locked { state in
            let id = completion.sessionID
            guard let row = Self.liveSession(id, of: completion.userID, in: state),
                  let user = state.users[completion.userID], !user.isDisabled
            else { return .sessionEnded }
            switch completion.proof {
            case .password(let verifiedHash):
                guard user.passwordHash == verifiedHash else { return .sessionEnded }
            case .code(let digest, let limit):
                guard let code = state.reauthenticationCodes[id], code.codeDigest == digest,
                      code.expiresAt > completion.now, code.attempts < limit
                else {
                    state.reauthenticationCodes[id]?.attempts += 1
                    return .wrongCode
                }
                state.reauthenticationCodes[id] = nil
            case .secondFactor:
                break
            }
            var session = row.session
            session.reauthenticatedAt = completion.now
            session.reauthenticatedWith = completion.proof.method
            session.accessExpiresAt = min(completion.accessExpiresAt,
                                          session.createdAt.addingTimeInterval(completion.maxSessionAge))
            state.sessions[id] = SessionRow(session: session, accessTokenHash: completion.accessTokenHash,
                                            lastUsedAt: completion.now)
            if let key = completion.forgiveFailuresOf { state.failures.removeValue(forKey: key) }
            var audit = completion.audit
            audit.userID = completion.userID
            state.audit.append(audit)
            return .reauthenticated(session)
        }
    }

    /// The session if it is a live one of `userID` (not revoked, on the user's password version).
    static func liveSession(_ id: SessionID, of userID: UserID, in state: State) -> SessionRow? {
        guard let row = state.sessions[id], row.session.userID == userID, row.session.revokedAt == nil,
              row.session.passwordVersion == state.users[userID]?.passwordVersion
        else { return nil }
        return row
    }
}
