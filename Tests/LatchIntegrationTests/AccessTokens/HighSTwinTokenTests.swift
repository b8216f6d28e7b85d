import Foundation
import LatchTestSupport
import Testing

/// ECDSA accepts (r, n − s) wherever it accepts (r, s): the "high-S twin" of a token's signature. latchd signs
/// with s ≤ n/2 and answers 401 `invalid_token` to the twin, so one token has exactly one text at latchd, and its
/// cache of checked token texts cannot be made to hold a second one.
@Suite struct HighSTwinTokenTests {
    /// n of P-256 (SEC 2 v2 §2.4.2), big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// n − s, in plain byte arithmetic (s < n, 32 bytes big-endian).
    static func twin(_ s: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let digit = Int(order[index]) - Int(s[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            result[index] = UInt8(digit + borrow * 256)
        }
        return result
    }

    /// The token with its signature's s replaced by n − s, re-encoded in base64url; and whether s was low.
    static func highSTwin(of token: String) throws -> (twin: String, wasLow: Bool) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let signature = try #require(parts.count == 3 ? AccessTokenParts.decode(parts[2]) : nil)
        try #require(signature.count == 64)
        let s = Array(signature.suffix(32))
        let twinS = twin(s)
        // Of s and n − s (n odd), the smaller is the low one.
        let wasLow = s.lexicographicallyPrecedes(twinS)
        let twinSignature = AccessTokenParts.encode(Data(signature.prefix(32)) + Data(twinS))
        return (parts[0] + "." + parts[1] + "." + twinSignature, wasLow)
    }

    @Test func aSignedInTokensHighSTwinIsA401WhileTheTokenWorks() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("zoe@example.test", "twin passphrase")
        let token = try app.session("zoe@example.test", "twin passphrase").access_token
        let (twin, wasLow) = try Self.highSTwin(of: token)
        #expect(wasLow, "latchd signs with s ≤ n/2")

        // The genuine text first, so its checked signature is kept: the twin must not be taken for it.
        #expect(try app.me(token).status == 200)
        try ForgedTokenTests.expectRefused(app, twin, "the high-S twin")
        #expect(try app.me(token).status == 200, "the token itself still works")
        #expect(try PyJWTVerifier(port: app.port).verify(token).first?.isValid == true, "low-S is plain ES256")
    }

    /// Every token a flow hands out is low-S, and each one's twin is refused even when it arrives first.
    @Test func everyIssuedTokenIsLowSAndItsTwinIsRefusedBeforeOrAfterIt() throws {
        let app = try TestApp()
        defer { app.stop() }
        var session = try app.signUpAndConfirm("amy@example.test", "twin passphrase")
        for round in 0..<8 {
            let (twin, wasLow) = try Self.highSTwin(of: session.access_token)
            #expect(wasLow, "token \(round)")
            try ForgedTokenTests.expectRefused(app, twin, "twin \(round), before the token")
            #expect(try app.me(session.access_token).status == 200, "token \(round)")
            session = try app.refresh(session.refresh_token).json(SessionJSON.self)
        }
    }
}
