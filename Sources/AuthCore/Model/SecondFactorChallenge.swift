import Foundation

/// The answer to a correct first factor of a user with a second factor: a ticket for `POST /v1/signin/mfa`, and
/// no session. Nothing an app could mistake for being signed in.
public struct SecondFactorChallenge: Hashable, Sendable {
    /// 256 random bits, base64url; only its SHA-256 is stored.
    public var ticket: String
    /// What the second step takes, in the order an app should offer them.
    public var methods: [String]
    /// Seconds the ticket lives.
    public var expiresIn: Int

    public init(ticket: String, methods: [String] = ["totp", "recovery_code"], expiresIn: Int) {
        self.ticket = ticket
        self.methods = methods
        self.expiresIn = expiresIn
    }
}

/// What a first-factor sign-in gives: a session, or a challenge for the second factor.
public enum SignInOutcome: Hashable, Sendable {
    case signedIn(IssuedSession)
    case secondFactorRequired(SecondFactorChallenge)

    /// The session, nil while a second factor is due.
    public var session: IssuedSession? {
        if case .signedIn(let session) = self { return session }
        return nil
    }

    /// The challenge, nil when signed in.
    public var challenge: SecondFactorChallenge? {
        if case .secondFactorRequired(let challenge) = self { return challenge }
        return nil
    }
}

/// A ticket to store (`SecondFactorStore.issueTicket`): its digest and what the second step needs to open the
/// session the first step would have.
public struct NewSecondFactorTicket: Hashable, Sendable {
    public var hash: Data
    public var userID: UserID
    /// The user's password version when the first factor was proven: a change since ends the ticket.
    public var passwordVersion: Int
    public var firstFactor: AuthenticationMethod
    /// Where wrong codes count, as wrong passwords do: the address's key, and the trusted device that vouched
    /// for the first step (if one did).
    public var emailKey: String
    public var deviceTokenHash: Data?
    public var ip: String?
    public var userAgent: String?
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        hash: Data, userID: UserID, passwordVersion: Int, firstFactor: AuthenticationMethod, emailKey: String,
        deviceTokenHash: Data?, ip: String?, userAgent: String?, createdAt: Date, expiresAt: Date
    ) {
        self.hash = hash
        self.userID = userID
        self.passwordVersion = passwordVersion
        self.firstFactor = firstFactor
        self.emailKey = emailKey
        self.deviceTokenHash = deviceTokenHash
        self.ip = ip
        self.userAgent = userAgent
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A stored ticket, read back.
public struct SecondFactorTicket: Hashable, Sendable {
    public var ticket: NewSecondFactorTicket
    public var failures: Int
    public var usedAt: Date?

    public init(ticket: NewSecondFactorTicket, failures: Int, usedAt: Date?) {
        self.ticket = ticket
        self.failures = failures
        self.usedAt = usedAt
    }
}
