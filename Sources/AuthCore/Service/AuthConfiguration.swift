import DeepLinkRouting
import Foundation

/// Everything the flows need to know, as one value parsed and validated once at start (by LatchConfig).
public struct AuthConfiguration: Hashable, Sendable {
    /// Lifetime of a confirm-email token (ARCHITECTURE.md, security rule 2: 24 h).
    public var confirmTokenTTL: TimeInterval
    /// Lifetime of a reset-password token (1 h).
    public var resetTokenTTL: TimeInterval
    /// Lifetime of an access token (15 min).
    public var accessTokenTTL: TimeInterval
    /// Lifetime of a refresh token (30 days); each rotation starts a new one.
    public var refreshTokenTTL: TimeInterval
    /// Absolute lifetime of a session (90 days): refreshing cannot extend it past `created_at + sessionMaxAge`.
    public var sessionMaxAge: TimeInterval
    /// How long a device that signed in stays trusted without signing in again (a year).
    public var deviceTrustTTL: TimeInterval
    public var rateLimits: AuthRateLimits
    public var lockout: LockoutPolicy
    /// Wrong codes a token record survives; at this many it is spent and a new mail is needed.
    public var codeAttempts: Int
    /// Lifetime of a sign-in-by-mail record, link and code (`LATCH_SIGNIN_TTL`, 15 min).
    public var signInTokenTTL: TimeInterval
    /// Whether sign-in by mail is offered (`LATCH_EMAIL_SIGNIN`); off, its routes do not exist.
    public var emailSignIn: Bool
    /// How long a re-authentication lets a session make privileged changes (`LATCH_PRIVILEGED_MAX_AGE`, 10 min).
    public var privilegedMaxAge: TimeInterval
    /// Lifetime of a re-authentication code mailed to a signed-in user (10 min).
    public var reauthenticationCodeTTL: TimeInterval
    /// The issuer authenticator apps show beside a TOTP factor (`LATCH_MFA_ISSUER`, "Latch").
    public var mfaIssuer: String
    /// Lifetime of an invitation's link and code (`LATCH_INVITE_TTL`, 7 days): long enough for someone who was
    /// not expecting the mail to find it.
    public var inviteTokenTTL: TimeInterval = 7 * 24 * 3600
    /// How long a pending TOTP enrolment waits for its first code (10 min).
    public var enrolmentTTL: TimeInterval = 10 * 60
    /// How long a second-factor ticket lives after a correct first factor (5 min).
    public var secondFactorTicketTTL: TimeInterval = 5 * 60
    /// Where mailed links point (`LATCH_LINK_BASE`, `LATCH_APP_SCHEME`).
    public var deepLinks: DeepLinkConfiguration
    /// The signed access tokens' issuer, audience and key publication.
    public var accessTokens: AccessTokenConfiguration
    /// The relying party passkeys are bound to; by default the link base's host.
    public var passkeys: PasskeyConfiguration
    /// The providers whose native id_tokens sign users in, by name (`apple`); empty turns provider sign-in off.
    public var identityProviders: [String: IdentityProvider] = [:]
    /// How long a provider sign-in nonce may be used (`expires_in` of `POST /v1/signin/<provider>/nonce`).
    public var signInNonceTTL: TimeInterval = 5 * 60

    public init(
        confirmTokenTTL: TimeInterval = 24 * 3600,
        resetTokenTTL: TimeInterval = 3600,
        accessTokenTTL: TimeInterval = 15 * 60,
        refreshTokenTTL: TimeInterval = 30 * 24 * 3600,
        sessionMaxAge: TimeInterval = 90 * 24 * 3600,
        deviceTrustTTL: TimeInterval = 365 * 24 * 3600,
        rateLimits: AuthRateLimits = AuthRateLimits(),
        lockout: LockoutPolicy = LockoutPolicy(),
        codeAttempts: Int = 5,
        signInTokenTTL: TimeInterval = 15 * 60,
        emailSignIn: Bool = true,
        privilegedMaxAge: TimeInterval = 10 * 60,
        reauthenticationCodeTTL: TimeInterval = 10 * 60,
        mfaIssuer: String = "Latch",
        deepLinks: DeepLinkConfiguration,
        accessTokens: AccessTokenConfiguration? = nil,
        passkeys: PasskeyConfiguration? = nil
    ) {
        self.confirmTokenTTL = confirmTokenTTL
        self.resetTokenTTL = resetTokenTTL
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.sessionMaxAge = sessionMaxAge
        self.deviceTrustTTL = deviceTrustTTL
        self.rateLimits = rateLimits
        self.lockout = lockout
        self.codeAttempts = codeAttempts
        self.signInTokenTTL = signInTokenTTL
        self.emailSignIn = emailSignIn
        self.privilegedMaxAge = privilegedMaxAge
        self.reauthenticationCodeTTL = reauthenticationCodeTTL
        self.mfaIssuer = mfaIssuer
        self.deepLinks = deepLinks
        // The link base is latchd's public origin, so it is the issuer unless configured otherwise.
        let base = deepLinks.linkBase.absoluteString
        self.accessTokens = accessTokens
            ?? AccessTokenConfiguration(issuer: base.hasSuffix("/") ? String(base.dropLast()) : base)
        self.passkeys = passkeys ?? PasskeyConfiguration(linkBase: deepLinks.linkBase)
    }

    /// When signing keys take over and retire, from the JWKS cache time and the access tokens' lifetime.
    public var signingKeySchedule: SigningKeySchedule {
        SigningKeySchedule(jwksMaxAge: accessTokens.jwksMaxAge, accessTokenTTL: accessTokenTTL)
    }

    /// Human-readable problems, empty when the configuration is usable (LatchConfig prints them and exits 2).
    public var problems: [String] {
        var problems: [String] = []
        let ttls = [("confirm token TTL", confirmTokenTTL), ("reset token TTL", resetTokenTTL),
                    ("access token TTL", accessTokenTTL), ("refresh token TTL", refreshTokenTTL),
                    ("session max age", sessionMaxAge), ("device trust TTL", deviceTrustTTL),
                    ("sign-in token TTL", signInTokenTTL), ("privileged max age", privilegedMaxAge),
                    ("re-authentication code TTL", reauthenticationCodeTTL),
                    ("invite token TTL", inviteTokenTTL)]
        for (name, ttl) in ttls where !(ttl > 0) { problems.append("\(name) must be positive") }
        if refreshTokenTTL < accessTokenTTL { problems.append("refresh token TTL must not be shorter than access token TTL") }
        if sessionMaxAge < accessTokenTTL { problems.append("session max age must not be shorter than access token TTL") }
        for (name, rule) in rateLimits.named where rule.limit < 1 || !(rule.window > 0) {
            problems.append("rate limit \(name) needs a limit >= 1 and a positive window")
        }
        if codeAttempts < 1 { problems.append("code attempts must be at least 1") }
        problems += accessTokens.problems
        if lockout.threshold < 1 || !(lockout.base > 0) || lockout.cap < lockout.base || !(lockout.forgetAfter > 0) {
            problems.append("lockout needs threshold >= 1, base > 0, cap >= base, forgetAfter > 0")
        }
        return problems
    }
}
