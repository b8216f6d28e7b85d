import Foundation

/// An authenticator being added (`LatchClient.enrollTOTP(name:)`), pending until `activateTOTP(factorID:code:)`
/// proves the user's app has its secret. Show `otpauthURI` as a QR code (an authenticator app scans it) and `secret`
/// for typing in by hand; keep neither beyond the enrolment screen. The printed forms show neither.
public struct TOTPEnrollment: Hashable, Sendable, Codable {
    /// The factor to activate (and, once active, to remove).
    public let factorID: UUID
    /// The shared secret, 32 characters of RFC 4648 base32 without padding: as secret as a password.
    public let secret: String
    /// `otpauth://totp/Latch:…?secret=…&issuer=Latch&algorithm=SHA1&digits=6&period=30`: the secret and how to use
    /// it, for the QR code.
    public let otpauthURI: URL
    /// Seconds from the answer during which the enrolment may be activated (10 minutes); later, or after a newer
    /// enrolment, activation answers `factorNotFound`.
    public let expiresIn: Int

    public init(factorID: UUID, secret: String, otpauthURI: URL, expiresIn: Int) {
        self.factorID = factorID
        self.secret = secret
        self.otpauthURI = otpauthURI
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case secret
        case factorID = "factor_id"
        case otpauthURI = "otpauth_uri"
        case expiresIn = "expires_in"
    }
}

extension TOTPEnrollment: APIResponse {}

extension TOTPEnrollment: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `TOTPEnrollment(factor …, for … s)`: the secret and the URI that holds it are left out.
    public var description: String {
        "TOTPEnrollment(factor \(factorID.uuidString.lowercased()), for \(expiresIn) s)"
    }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: everything but the secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "factorID": factorID, "secret": "<redacted>", "otpauthURI": "<redacted>", "expiresIn": expiresIn,
        ], displayStyle: .struct)
    }
}
