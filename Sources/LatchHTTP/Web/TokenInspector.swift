import AuthCore

/// Tells a landing page's GET what state a token is in, without redeeming it: mail scanners open links before
/// people do, so a GET must never spend a token (NOTES.md). Reads through AuthCore's ports the same facts
/// `AuthService` reads to explain a failed redemption.
struct TokenInspector: Sendable {
    let auth: AuthService

    /// `.ready(problem: nil)`, `.expired`, `.used`, `.invalid` or `.disabled`.
    /// - Throws: store errors only.
    func state(of token: String, purpose: TokenPurpose) throws -> LandingPageState {
        // Not one of ours: no need to ask the database.
        guard !token.isEmpty, token.utf8.count <= FieldLimits.tokenBytes, !token.utf8.contains(0) else {
            return .invalid
        }
        let ports = auth.ports
        guard let record = try ports.tokens.lookupToken(hash: ports.tokenGenerator.digest(token)),
              record.purpose == purpose
        else { return .invalid }
        if record.usedAt != nil { return .used }
        if record.expiresAt <= ports.clock.now() { return .expired }
        guard let user = try ports.users.findUser(id: record.userID) else { return .invalid }
        return user.isDisabled ? .disabled : .ready(problem: nil)
    }
}
