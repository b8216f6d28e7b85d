import Foundation

/// The claims of an access token (a JWS, RFC 9068's `at+jwt`): who it is for, through which session, until when.
/// Nothing in it is secret: any holder can read it; only the signature makes it trustworthy.
///
/// Encodes with the JWT names: `iss`, `aud`, `sub` (user id), `sid` (session id), `iat` and `exp` (NumericDate:
/// whole seconds since 1970), `jti`, `email`, `email_verified`, `auth_time` (RFC 9068 §2.2.1: when the user
/// last proved presence on the session), `acr` and `amr` (how; all three optional when decoding, for tokens issued
/// before they existed). Decoding is strict: every claim must be there
/// with its type (`aud` a single string), so a token that is not exactly Latch's shape fails to decode.
public struct AccessTokenClaims: Hashable, Sendable, Codable {
    public var issuer: String
    public var audience: String
    public var subject: UserID
    public var sessionID: SessionID
    public var issuedAt: Date
    public var expiresAt: Date
    /// 256 random bits, base64url: names this one token. Its SHA-256 is the session's `access_token_hash`, so a
    /// token replaced by a refresh stops working at Latch.
    public var tokenID: String
    public var email: String
    public var emailVerified: Bool
    /// `Session.authTime` when the token was issued.
    public var authTime: Date?
    /// The session's assurance (`acr`, RFC 9068 §2.2.1); optional when decoding, as `auth_time` is.
    public var assurance: AssuranceLevel?
    /// How the session was opened (`amr`, RFC 8176: an array of method names).
    public var methods: [AuthenticationMethod]?

    /// Times are cut to whole seconds, as they are written.
    public init(
        issuer: String, audience: String, subject: UserID, sessionID: SessionID, issuedAt: Date, expiresAt: Date,
        tokenID: String, email: String, emailVerified: Bool, authTime: Date? = nil, assurance: AssuranceLevel? = nil,
        methods: [AuthenticationMethod]? = nil
    ) {
        self.assurance = assurance
        self.methods = methods
        self.authTime = authTime.map(Self.wholeSeconds)
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.sessionID = sessionID
        self.issuedAt = Self.wholeSeconds(issuedAt)
        self.expiresAt = Self.wholeSeconds(expiresAt)
        self.tokenID = tokenID
        self.email = email
        self.emailVerified = emailVerified
    }

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case subject = "sub"
        case sessionID = "sid"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case tokenID = "jti"
        case email
        case emailVerified = "email_verified"
        case authTime = "auth_time"
        case assurance = "acr"
        case methods = "amr"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        audience = try container.decode(String.self, forKey: .audience)
        subject = try container.decode(UserID.self, forKey: .subject)
        sessionID = try container.decode(SessionID.self, forKey: .sessionID)
        issuedAt = Date(timeIntervalSince1970: TimeInterval(try container.decode(Int64.self, forKey: .issuedAt)))
        expiresAt = Date(timeIntervalSince1970: TimeInterval(try container.decode(Int64.self, forKey: .expiresAt)))
        tokenID = try container.decode(String.self, forKey: .tokenID)
        email = try container.decode(String.self, forKey: .email)
        emailVerified = try container.decode(Bool.self, forKey: .emailVerified)
        authTime = try container.decodeIfPresent(Int64.self, forKey: .authTime)
            .map { Date(timeIntervalSince1970: TimeInterval($0)) }
        assurance = try container.decodeIfPresent(AssuranceLevel.self, forKey: .assurance)
        methods = try container.decodeIfPresent([AuthenticationMethod].self, forKey: .methods)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(audience, forKey: .audience)
        try container.encode(subject, forKey: .subject)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(Int64(issuedAt.timeIntervalSince1970), forKey: .issuedAt)
        try container.encode(Int64(expiresAt.timeIntervalSince1970), forKey: .expiresAt)
        try container.encode(tokenID, forKey: .tokenID)
        try container.encode(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(authTime.map { Int64($0.timeIntervalSince1970) }, forKey: .authTime)
        try container.encodeIfPresent(assurance, forKey: .assurance)
        try container.encodeIfPresent(methods, forKey: .methods)
    }

    /// NumericDate is whole seconds; rounding down keeps a token from outliving the expiry the store recorded.
    public static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
