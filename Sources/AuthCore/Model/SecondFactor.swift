import Foundation

/// `mfa_factors.id`: one TOTP authenticator of a user.
public enum FactorKind: IdentifierKind {}
public typealias FactorID = Identifier<FactorKind>

/// How the user proved who they are, as RFC 8176 names it (`amr` in access tokens). `email` (a mailed link or
/// code) and `rc` (a recovery code) are Latch's own values, documented in openapi.yaml.
public enum AuthenticationMethod: String, Hashable, Sendable, Codable, CaseIterable {
    /// The password.
    case password = "pwd"
    /// A link or code mailed to the account's address.
    case email
    /// A TOTP code (RFC 6238).
    case otp
    /// A recovery code.
    case recoveryCode = "rc"
    /// Two factors (RFC 8176 `mfa`).
    case multipleFactors = "mfa"
    /// A passkey bound to its device (RFC 8176 `hwk`: not backup-eligible).
    case hardwareKey = "hwk"
    /// A passkey that may be synced to other devices (RFC 8176 `swk`: backup-eligible).
    case softwareKey = "swk"
    /// The authenticator verified the user (RFC 8176 `user`: WebAuthn UV, a biometric or device PIN).
    case userVerification = "user"
    /// A provider's id_token (Sign in with Apple): federated, one factor (`fed`, as identity providers name it).
    case federated = "fed"

    /// A second factor: proof of the authenticator or of its recovery codes, or a passkey (possession, and the
    /// user verification that makes it two factors alone).
    public var isSecondFactor: Bool { [.otp, .recoveryCode, .hardwareKey, .softwareKey].contains(self) }
}

/// NIST SP 800-63B's authenticator assurance level of a session (`acr` in access tokens).
public enum AssuranceLevel: String, Hashable, Sendable, Codable, CaseIterable {
    /// One factor: a password or a mailed link.
    case aal1
    /// Two: a first factor and a TOTP code or recovery code, or a passkey with user verification.
    case aal2
}

/// An active factor as the user sees it (`GET /v1/mfa`): no secret.
public struct SecondFactor: Hashable, Sendable {
    public var id: FactorID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(id: FactorID, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A user's active factors (oldest first) and how many recovery codes are left unspent.
public struct SecondFactorStatus: Hashable, Sendable {
    public var factors: [SecondFactor]
    public var recoveryCodesRemaining: Int

    public init(factors: [SecondFactor], recoveryCodesRemaining: Int) {
        self.factors = factors
        self.recoveryCodesRemaining = recoveryCodesRemaining
    }
}

/// A TOTP factor as stored: its sealed secret (`SecondFactorSecrets.seal`) and the newest step it accepted.
public struct TOTPFactorRecord: Hashable, Sendable {
    public var id: FactorID
    public var userID: UserID
    public var name: String
    public var sealedSecret: Data
    public var createdAt: Date
    /// Nil while pending.
    public var activatedAt: Date?
    /// When a pending factor stops being activatable; nil once active.
    public var expiresAt: Date?
    /// Wrong activation codes so far.
    public var attempts: Int
    /// The newest RFC 6238 time step accepted (-1: none).
    public var lastStep: Int64
    public var lastUsedAt: Date?

    public init(
        id: FactorID, userID: UserID, name: String, sealedSecret: Data, createdAt: Date, activatedAt: Date? = nil,
        expiresAt: Date? = nil, attempts: Int = 0, lastStep: Int64 = -1, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
        self.activatedAt = activatedAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.lastStep = lastStep
        self.lastUsedAt = lastUsedAt
    }

    public var isActive: Bool { activatedAt != nil }

    public var publicFactor: SecondFactor {
        SecondFactor(id: id, name: name, createdAt: createdAt, lastUsedAt: lastUsedAt)
    }
}

/// What `POST /v1/mfa/totp` hands the app once: the secret to show and the URI to draw as a QR code. Never
/// stored in clear, never logged.
public struct TOTPEnrollment: Hashable, Sendable {
    public var factorID: FactorID
    /// RFC 4648 base32 without padding.
    public var secret: String
    /// `otpauth://totp/…` (the Key Uri Format authenticator apps read).
    public var otpauthURI: String
    /// Seconds the enrolment waits for its first code.
    public var expiresIn: Int

    public init(factorID: FactorID, secret: String, otpauthURI: String, expiresIn: Int) {
        self.factorID = factorID
        self.secret = secret
        self.otpauthURI = otpauthURI
        self.expiresIn = expiresIn
    }
}

/// A second factor the user typed: a TOTP code or a recovery code.
public enum SecondFactorProof: Hashable, Sendable {
    case totp(String)
    case recoveryCode(String)

    public var method: AuthenticationMethod {
        switch self {
        case .totp: .otp
        case .recoveryCode: .recoveryCode
        }
    }
}
