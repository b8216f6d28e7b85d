/// What a one-time token would do if redeemed now (`AuthService.tokenState`).
public enum TokenState: Hashable, Sendable {
    /// Redeemable, for this user.
    case usable(UserRecord)
    /// Not redeemable: `invalidToken`, `tokenUsed`, `tokenSuperseded`, `tokenExpired`, `userDisabled` or
    /// `alreadyConfirmed`.
    case failed(AuthError)
}
