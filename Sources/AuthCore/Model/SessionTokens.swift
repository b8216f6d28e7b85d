import Foundation

/// A fresh access/refresh pair while a flow is issuing it: raw tokens for the client, digests for the store.
struct SessionTokens: Sendable {
    let accessToken: String
    let accessTokenHash: Data
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

    /// The pair for the client. `session`, when given, supplies the expiries the store settled on (a refresh
    /// capped at the session's absolute lifetime).
    func issued(to user: User, session: Session? = nil, deviceToken: String? = nil) -> IssuedSession {
        IssuedSession(accessToken: accessToken, refreshToken: refreshToken,
                      accessTokenExpiresAt: session?.accessExpiresAt ?? accessExpiresAt,
                      refreshTokenExpiresAt: session?.refreshExpiresAt ?? refreshExpiresAt,
                      user: user, deviceToken: deviceToken)
    }
}
