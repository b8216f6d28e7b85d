import AuthCore

/// Tells a landing page's GET what state a token is in, without redeeming it: mail scanners open links before
/// people do, so a GET must never spend a token. The facts are `AuthService.tokenState`'s, the same ones a
/// failed redemption is explained with.
struct TokenInspector: Sendable {
    let auth: AuthService

    /// `.ready(problem: nil)` or the state that says why the token cannot be used, and for a usable token its
    /// account's language (`users.locale`; as `AuthService.locale(ofToken:purpose:)` tells, from the same read).
    /// - Throws: store errors only.
    func inspect(_ token: String, purpose: TokenPurpose) throws -> (state: LandingPageState, locale: String?) {
        // Not one of ours: no need to ask the database.
        guard TokenText.isToken(token) else { return (.invalid, nil) }
        switch try auth.tokenState(token, purpose: purpose) {
        case .usable(let user): return (.ready(problem: nil), user.locale)
        case .failed(let error): return (LandingPageState(refusal: error), nil)
        }
    }
}
