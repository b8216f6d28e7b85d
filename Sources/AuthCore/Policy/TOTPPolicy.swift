import Foundation

/// RFC 6238 as Latch applies it: 30-second steps counted from the Unix epoch, 6 digits, and codes accepted for
/// the current step and one either side (clock drift of up to 30 s each way), never for a step at or before the
/// factor's last accepted one.
public enum TOTPPolicy {
    public static let period: TimeInterval = 30
    public static let digits = 6
    /// Steps accepted either side of the current one.
    public static let drift: Int64 = 1

    /// The time step containing `date` (RFC 6238 §4.2, T0 = 0).
    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The steps a code typed at `date` may be for, newest first.
    public static func candidateSteps(at date: Date) -> [Int64] {
        let now = step(at: date)
        return Array(((now - drift)...(now + drift)).reversed())
    }

    /// Whether `code` has the shape of a code at all (6 ASCII digits, spaces around or inside forgiven).
    public static func normalized(_ typed: String) -> String? {
        let digitsOnly = typed.filter { $0 != " " }
        guard digitsOnly.count == digits, digitsOnly.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return digitsOnly
    }

    /// The Key Uri Format authenticator apps read: `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&…`.
    public static func otpauthURI(issuer: String, account: String, secret: Data) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(account)
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(percentEncoded(issuer))"
            + "&algorithm=SHA1&digits=\(digits)&period=\(Int(period))"
    }

    /// RFC 3986 unreserved characters stay; everything else (`@`, `:`, spaces, non-ASCII) is escaped.
    private static func percentEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
