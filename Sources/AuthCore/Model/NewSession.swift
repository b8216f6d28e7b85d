import Foundation

/// A session to insert (sign-in), with its first refresh token.
public struct NewSession: Hashable, Sendable {
    public var id: SessionID
    public var userID: UserID
    public var createdAt: Date
    public var credentials: SessionCredentials
    /// The password version the sign-in was verified under.
    public var passwordVersion: Int

    public init(id: SessionID, userID: UserID, createdAt: Date, credentials: SessionCredentials, passwordVersion: Int) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.credentials = credentials
        self.passwordVersion = passwordVersion
    }
}
