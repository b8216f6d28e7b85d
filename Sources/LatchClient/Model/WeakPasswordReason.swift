/// Which password rule a `weak_password` answer names (the error's `reason`).
public enum WeakPasswordReason: String, Hashable, Sendable, CaseIterable {
    case passwordTooShort = "password_too_short"
    case passwordTooLong = "password_too_long"
    case passwordIsEmail = "password_is_email"
    case passwordTooCommon = "password_too_common"
}
