import Foundation

/// Why a token exists.
public enum TokenPurpose: String, Hashable, Sendable, Codable, CaseIterable {
    case confirm
    case reset
    /// Makes `NewToken.newEmail` the account's address.
    case emailChange = "email_change"
}
