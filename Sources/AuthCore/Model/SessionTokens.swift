import Foundation

/// A fresh access/refresh pair while a flow is issuing it: the access token's id (`jti`) and the raw refresh
/// token for the client, digests for the store. The access token itself is signed last (`AuthService.issue`),
/// once the session and its user are known.
struct SessionTokens: Sendable {
    /// The `jti` of the access token: its SHA-256 is what the session stores (`access_token_hash`).
    let accessTokenID: String
    let accessTokenHash: Data
    /// Whole seconds, as a JWT carries them.
    let issuedAt: Date
    let accessExpiresAt: Date
    let refreshToken: String
    let refreshTokenHash: Data
    let refreshExpiresAt: Date

    /// What the store keeps of the pair and its client; the user agent is sanitized here, the one place every
    /// session's client is recorded.
    func credentials(ip: String?, userAgent: String?) -> SessionCredentials {
        SessionCredentials(accessTokenHash: accessTokenHash, accessExpiresAt: accessExpiresAt,
                           refreshTokenHash: refreshTokenHash, refreshExpiresAt: refreshExpiresAt,
                           userAgent: UserAgentText.sanitized(userAgent), ip: ip)
    }
}
