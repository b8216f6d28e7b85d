import AuthCore
import Foundation
import LatchCrypto
import Mailer

/// Message-ID tokens for latchd's outbox: HMAC-SHA256 of the row id under a key derived from the server secret
/// (`SecretPurpose.mailMessageIDs`), the first 128 bits in lowercase hex.
///
/// Keyed, because the row id is a counter shared by every account and an unkeyed function of it (a plain hash) can
/// be reversed by trying every id; without the key a token says nothing about the id, its order or its distance to
/// another. Deterministic, because a resend after a crash must carry the same Message-ID, from whichever daemon
/// sends it (they share the secret). 128 bits keep tokens of different rows apart (a collision would let a client
/// drop one mail as a duplicate of another). Hex rather than base64url: one case only, so a tool that folds the
/// case of Message-IDs still tells two tokens apart.
///
/// Two deployments share Message-IDs only if they share the server secret, which they must not anyway.
public struct HMACMessageIDTokens: MessageIDTokens {
    static let tokenBytes = 16
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private let key: Data

    public init(secret: ServerSecret) {
        key = SecretKeyDeriver(secret: secret).key(for: .mailMessageIDs)
    }

    public func token(outboxID: Int64) -> String {
        // Eight big-endian bytes: a fixed-length encoding, so no two ids give the same input.
        let input = withUnsafeBytes(of: outboxID.bigEndian) { Data($0) }
        let mac = HMACSHA256.authenticate(input, key: key).prefix(Self.tokenBytes)
        var hex: [UInt8] = []
        hex.reserveCapacity(mac.count * 2)
        for byte in mac {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
