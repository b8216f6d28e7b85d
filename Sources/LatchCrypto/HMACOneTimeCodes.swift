import AuthCore
import Foundation

/// `OneTimeCodes` with codes from OpenSSL's CSPRNG and digests keyed by the server secret.
public struct HMACOneTimeCodes: OneTimeCodes {
    private let key: Data

    public init(secret: ServerSecret) {
        key = SecretKeyDeriver(secret: secret).key(for: .oneTimeCodes)
    }

    /// Rejection sampling over 32 random bits: values at or above the largest multiple of 10^8 below 2^32 are
    /// drawn again, so every code is exactly as likely (a plain modulo would favour the low ones).
    public func makeCode() -> String {
        let range: UInt32 = 100_000_000
        let limit = UInt32.max - UInt32.max % range  // 4_200_000_000: a multiple of `range`
        while true {
            guard let bytes = try? SecureRandom.bytes(count: 4) else {
                fatalError("OpenSSL's CSPRNG is unavailable")  // as for tokens: no secret without randomness
            }
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if value < limit {
                let digits = String(value % range)
                return String(repeating: "0", count: OneTimeCode.length - digits.count) + digits
            }
        }
    }

    /// HMAC-SHA256 of `purpose`, the user id and the code, separated so no two inputs run together.
    public func digest(code: String, userID: UserID, purpose: TokenPurpose) -> Data {
        HMACSHA256.authenticate(Data("\(purpose.rawValue)\u{0}\(userID.description)\u{0}\(code)".utf8), key: key)
    }

    /// HMAC-SHA256 of `reauthenticate`, the session id and the code: no token purpose has that name, so a
    /// re-authentication code's digest is never a token's.
    public func digest(code: String, sessionID: SessionID) -> Data {
        HMACSHA256.authenticate(Data("reauthenticate\u{0}\(sessionID.description)\u{0}\(code)".utf8), key: key)
    }
}
