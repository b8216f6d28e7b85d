import Foundation

/// The rate limits of ARCHITECTURE.md, security rule 4: per IP and per email on sign-in, sign-up, resend and forgot.
public struct AuthRateLimits: Hashable, Sendable, Codable {
    public var signInPerIP: RateLimitRule
    public var signInPerEmail: RateLimitRule
    public var signUpPerIP: RateLimitRule
    public var signUpPerEmail: RateLimitRule
    public var resendPerIP: RateLimitRule
    public var resendPerEmail: RateLimitRule
    public var forgotPerIP: RateLimitRule
    public var forgotPerEmail: RateLimitRule
    /// Typed codes (confirm, reset, email change), right or wrong.
    public var codePerIP: RateLimitRule
    public var codePerEmail: RateLimitRule
    /// Refused admin API keys (missing, malformed, unknown, expired, revoked) per client address.
    public var adminKeyPerIP: RateLimitRule

    /// Defaults: generous per IP (offices share one address), tight per email (a mailbox needs few mails).
    public init(
        signInPerIP: RateLimitRule = RateLimitRule(limit: 30, window: 60),
        signInPerEmail: RateLimitRule = RateLimitRule(limit: 10, window: 15 * 60),
        signUpPerIP: RateLimitRule = RateLimitRule(limit: 10, window: 3600),
        signUpPerEmail: RateLimitRule = RateLimitRule(limit: 3, window: 3600),
        resendPerIP: RateLimitRule = RateLimitRule(limit: 10, window: 3600),
        resendPerEmail: RateLimitRule = RateLimitRule(limit: 3, window: 3600),
        forgotPerIP: RateLimitRule = RateLimitRule(limit: 10, window: 3600),
        forgotPerEmail: RateLimitRule = RateLimitRule(limit: 3, window: 3600),
        codePerIP: RateLimitRule = RateLimitRule(limit: 30, window: 3600),
        codePerEmail: RateLimitRule = RateLimitRule(limit: 10, window: 3600),
        adminKeyPerIP: RateLimitRule = RateLimitRule(limit: 20, window: 300)
    ) {
        self.adminKeyPerIP = adminKeyPerIP
        self.signInPerIP = signInPerIP
        self.signInPerEmail = signInPerEmail
        self.signUpPerIP = signUpPerIP
        self.signUpPerEmail = signUpPerEmail
        self.resendPerIP = resendPerIP
        self.resendPerEmail = resendPerEmail
        self.forgotPerIP = forgotPerIP
        self.forgotPerEmail = forgotPerEmail
        self.codePerIP = codePerIP
        self.codePerEmail = codePerEmail
    }

    /// Every rule with a name, for validation messages.
    public var named: [(String, RateLimitRule)] {
        [("signin per ip", signInPerIP), ("signin per email", signInPerEmail),
         ("signup per ip", signUpPerIP), ("signup per email", signUpPerEmail),
         ("resend per ip", resendPerIP), ("resend per email", resendPerEmail),
         ("forgot per ip", forgotPerIP), ("forgot per email", forgotPerEmail),
         ("code per ip", codePerIP), ("code per email", codePerEmail), ("admin key per ip", adminKeyPerIP)]
    }
}
