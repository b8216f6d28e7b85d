import Foundation

/// How a request names the token it redeems: the token of a link, or the code typed beside it (for the user
/// the request named by address). Both name the same record: using either spends it.
public enum TokenKey: Hashable, Sendable {
    /// `TokenGenerator.digest` of the link's token.
    case link(hash: Data)
    /// `OneTimeCodes.digest` of the typed code, for that user and the flow's purpose.
    case code(userID: UserID, digest: Data)
}
