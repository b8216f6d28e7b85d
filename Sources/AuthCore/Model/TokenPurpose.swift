import Foundation

/// Why a token exists.
public enum TokenPurpose: String, Hashable, Sendable, Codable, CaseIterable {
    case confirm
    case reset
    /// Makes `NewToken.newEmail` the account's address.
    case emailChange = "email_change"
    /// Signs in without a password (`POST /v1/signin/email`), only for the app instance holding the secret whose
    /// digest the record keeps (`binding`).
    case signIn = "sign_in"
    /// An operator's invitation (`AdminOperations.invite`): redeemed with the account's first password, which
    /// confirms the address and signs in (`AuthService.acceptInvite`).
    case invite
}
