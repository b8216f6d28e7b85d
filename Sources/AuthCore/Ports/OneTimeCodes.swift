import Foundation

/// The short code beside every mailed link, for typing into the app on another device or past a link scanner.
/// Implemented in LatchCrypto (`HMACOneTimeCodes`).
///
/// A code has only 10^8 values, so a digest anyone can compute would give it away to whoever reads the database:
/// codes are stored as an HMAC under a key derived from the server secret, which the database never holds, and
/// the HMAC binds the code to its user and purpose, so a code is worth nothing for another account or flow.
public protocol OneTimeCodes: Sendable {
    /// `OneTimeCode.length` decimal digits from the CSPRNG, uniform (no modulo bias).
    func makeCode() -> String
    /// The value stored for `code` of `userID`'s token of `purpose`.
    func digest(code: String, userID: UserID, purpose: TokenPurpose) -> Data
    /// The value stored for a re-authentication `code` mailed to `sessionID`: worth nothing for any other session.
    func digest(code: String, sessionID: SessionID) -> Data
}
