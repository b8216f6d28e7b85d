import Foundation

extension AuthService {
    /// Sets the language of the signed-in user's mail and pages (`PATCH /v1/me` `{"locale"}`): a tag there are
    /// templates for (`de-CH` is stored as `de` when only `de` exists).
    /// - Returns: the user as stored now.
    /// - Throws: `unsupportedLocale`, `invalidSession`.
    public func setLocale(_ authenticated: AuthenticatedUser, locale requested: String) throws -> User {
        let locale = try supportedLocale(requested)
        guard let user = try ports.store.setLocale(userID: authenticated.session.userID, locale: locale,
                                                   at: ports.clock.now())
        else { throw AuthError.invalidSession }
        return user.publicUser
    }

    /// The available locale an explicitly chosen tag names.
    /// - Throws: `unsupportedLocale` for a malformed tag or one there are no templates for.
    func supportedLocale(_ tag: String) throws -> String {
        guard let locale = languages.supported(tag) else { throw AuthError.unsupportedLocale }
        return locale
    }
}
