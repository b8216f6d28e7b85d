import Foundation

/// The cryptography of second factors, kept out of AuthCore as the hasher is: TOTP secrets made, sealed for
/// the database and opened again, RFC 6238 codes computed, recovery codes made and keyed for storage.
public protocol SecondFactorSecrets: Sendable {
    /// 20 bytes from the CSPRNG: RFC 4226's recommended 160-bit shared secret.
    func makeTOTPSecret() -> Data

    /// The 6-digit RFC 6238 code of `secret` for time step `step` (HMAC-SHA1, the default every authenticator
    /// app implements).
    func totpCode(secret: Data, step: Int64) -> String

    /// `secret` sealed for `mfa_factors.sealed_secret`, bound to the user and the factor: a sealed secret copied
    /// into another row does not open.
    func seal(totpSecret secret: Data, userID: UserID, factorID: FactorID) throws -> Data

    /// The secret `seal` sealed for this user and factor.
    /// - Throws: when it was sealed for another row, under another server secret, or altered.
    func openTOTPSecret(_ sealed: Data, userID: UserID, factorID: FactorID) throws -> Data

    /// 80 random bits as 16 Crockford base32 characters (`RecoveryCodeText.format` shows them in groups).
    func makeRecoveryCode() -> String

    /// The keyed digest of a recovery code (16 Crockford characters, normalized) for this user.
    func digest(recoveryCode: String, userID: UserID) -> Data
}
