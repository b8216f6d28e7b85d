import Foundation

/// A fresh access/refresh pair while a flow is issuing it: raw tokens for the client, digests for the store.
struct SessionTokens: Sendable {
    let accessToken: String
    let accessTokenHash: Data
    let accessExpiresAt: Date
    let refreshToken: String
    let refreshTokenHash: Data
    let refreshExpiresAt: Date

    func credentials(ip: String?, userAgent: String?) -> SessionCredentials {
        SessionCredentials(accessTokenHash: accessTokenHash, accessExpiresAt: accessExpiresAt,
                           refreshTokenHash: refreshTokenHash, refreshExpiresAt: refreshExpiresAt,
                           userAgent: userAgent, ip: ip)
    }

    func issued(to user: User) -> IssuedSession {
        IssuedSession(accessToken: accessToken, refreshToken: refreshToken, accessTokenExpiresAt: accessExpiresAt,
                      refreshTokenExpiresAt: refreshExpiresAt, user: user)
    }
}
