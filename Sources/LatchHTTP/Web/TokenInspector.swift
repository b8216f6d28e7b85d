import AuthCore

/// Tells a landing page's GET what state a token is in, without redeeming it: mail scanners open links before
/// people do, so a GET must never spend a token. The facts are `AuthService.tokenState`'s, the same ones a
/// failed redemption is explained with.
struct TokenInspector: Sendable {
    let auth: AuthService

    /// `.ready(problem: nil)` or the state that says why the token cannot be used.
    /// - Throws: store errors only.
    func state(of token: String, purpose: TokenPurpose) throws -> LandingPageState {
        // Not one of ours: no need to ask the database.
        guard TokenText.isToken(token) else { return .invalid }
        switch try auth.tokenState(token, purpose: purpose) {
        case .usable: return .ready(problem: nil)
        case .failed(let error): return LandingPageState(refusal: error)
        }
    }
}
