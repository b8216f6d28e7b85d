/// Which password rule was broken (ARCHITECTURE.md, security rule 1; NIST 800-63B: length and blocklist only, no composition rules).
public enum WeakPasswordReason: String, Hashable, Sendable, CaseIterable {
    case passwordTooShort = "password_too_short"
    case passwordTooLong = "password_too_long"
    case passwordIsEmail = "password_is_email"
    case passwordTooCommon = "password_too_common"

    /// A message naming the rule, safe to show.
    public var message: String {
        switch self {
        case .passwordTooShort: "The password must have at least 8 characters."
        case .passwordTooLong: "The password must have at most 128 characters."
        case .passwordIsEmail: "The password must not be your email address."
        case .passwordTooCommon: "This password is too common; choose another."
        }
    }
}
