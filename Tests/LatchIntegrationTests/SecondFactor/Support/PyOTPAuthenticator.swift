import Foundation

/// An authenticator app, played by pyotp (`Tests/pyotp/totp_codes.py`): what `pyotp.parse_uri` read from the
/// `otpauth_uri` latchd gave, and the codes it shows around one time reference.
///
/// How the tests stay clear of step boundaries, without sleeping on one:
/// - Every code of a test comes from one reference step T, taken (from the clock latchd runs on) before the
///   factor is activated. latchd's current step S at any later request is then T, or T+1 if a 30-s boundary
///   passed meanwhile (a test takes seconds; it would need a whole step to reach T+2). latchd accepts S-1…S+1.
/// - A code sent to be accepted is only ever T's or T+1's: each is in the window whether S is T or T+1, so it
///   does not matter when, between computing it and sending it, the step turns.
/// - A code sent to be refused for its age is T-2's or T+3's: outside the window for both possible S. A code
///   sent to be refused as a replay is T's or T+1's: inside the window for both, so only the replay rule can
///   refuse it.
/// - T-1's code is never sent to be accepted: it would be refused if S moved to T+1 before it arrived.
/// So one factor accepts at most two codes in a test (T, then T+1); a further proof is a recovery code or
/// another user's factor.
struct PyOTPAuthenticator: Sendable {
    static let period: TimeInterval = 30
    /// The steps computed, relative to T.
    static let offsets: ClosedRange<Int64> = -3...3

    /// What pyotp read from the URI.
    let issuer: String?
    let name: String
    let secret: String
    /// The key pyotp decoded from `secret`.
    let secretBytes: Data
    let digits: Int
    let interval: Int
    let algorithm: String
    /// T: the RFC 6238 step of the reference time.
    let reference: Int64
    private let codes: [Int64: String]

    static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// pyotp's reading of `uri`, with its codes for T-3…T+3, T being the step of `date`.
    init(uri: String, at date: Date = Date()) throws {
        let reference = Self.step(at: date)
        self.reference = reference
        let steps = Self.offsets.map { reference + $0 }
        let output = try VenvScript.run("totp_codes.py", ["--uri", uri] + steps.flatMap { ["--step", String($0)] })
        guard let object = try VenvScript.objects(output).first, let name = object["name"] as? String,
              let secret = object["secret"] as? String, let hex = object["secret_hex"] as? String,
              let digits = object["digits"] as? Int, let interval = object["interval"] as? Int,
              let algorithm = object["algorithm"] as? String, let codes = object["codes"] as? [String: String]
        else { throw VenvScript.Failure.failed("totp_codes.py", 0, output) }
        issuer = object["issuer"] as? String
        self.name = name
        self.secret = secret
        secretBytes = Data(stride(from: 0, to: hex.count, by: 2).compactMap { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        })
        self.digits = digits
        self.interval = interval
        self.algorithm = algorithm
        self.codes = Dictionary(uniqueKeysWithValues: codes.compactMap { key, code in Int64(key).map { ($0, code) } })
    }

    /// The code pyotp shows at step T + `offset` (-3…3).
    func code(_ offset: Int64) -> String {
        guard let code = codes[reference + offset] else { preconditionFailure("no code computed for T\(offset)") }
        return code
    }

    /// Whether the codes of T-3…T+3 all differ. Two equal by chance (about 1 in 50,000) would make a refusal
    /// the test expects an acceptance; the enrolment is then made again with a new secret.
    var codesAreDistinct: Bool { Set(codes.values).count == codes.count }

    /// `count` different codes of the right shape that none of T-3…T+3 has: wrong whatever latchd's step.
    func wrongCodes(_ count: Int) -> [String] {
        let taken = Set(codes.values)
        var wrong: [String] = []
        var candidate = Int(code(0)) ?? 0
        while wrong.count < count {
            candidate += 1
            let text = Self.sixDigits(candidate)
            if !taken.contains(text) { wrong.append(text) }
        }
        return wrong
    }

    var wrongCode: String { wrongCodes(1)[0] }

    /// For failure messages: T, and how many steps the wall clock has moved since.
    var timing: String { "T=\(reference), now T+\(Self.step(at: Date()) - reference)" }

    private static func sixDigits(_ value: Int) -> String {
        let text = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}
