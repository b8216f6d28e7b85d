import Foundation

/// The digests and expiries of a session's current access and refresh tokens, and the client they were issued
/// to: what sign-in and confirm insert and what a refresh rotation replaces.
public struct SessionCredentials: Hashable, Sendable {
    public var accessTokenHash: Data
    public var accessExpiresAt: Date
    public var refreshTokenHash: Data
    public var refreshExpiresAt: Date
    public var userAgent: String?
    public var ip: String?

    public init(
        accessTokenHash: Data, accessExpiresAt: Date, refreshTokenHash: Data, refreshExpiresAt: Date,
        userAgent: String?, ip: String?
    ) {
        self.accessTokenHash = accessTokenHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshTokenHash = refreshTokenHash
        self.refreshExpiresAt = refreshExpiresAt
        self.userAgent = userAgent
        self.ip = ip
    }
}
