import AuthCore
import HTTPServer

/// The bearer middleware of `/v1/signout` and `/v1/me`: parse the header, then AuthCore checks the signature and
/// looks the session up once.
struct BearerAuthenticator: Sendable {
    let auth: AuthService

    /// - Throws: `APIError.missingToken` / `.malformedToken`, or AuthCore's `invalidAccessToken`, `invalidSession`,
    ///   `sessionExpired`, `userDisabled`, or a store error.
    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedUser {
        let token = try BearerToken.parse(request.headers)
        return try auth.authenticate(accessToken: token)
    }
}
