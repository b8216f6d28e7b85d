import AuthCore
import Foundation

/// `SecondFactorSecrets` with OpenSSL: RFC 6238 codes over HMAC-SHA1, secrets sealed with AES-256-GCM under the
/// key derived for `SecretPurpose.totpSecretEncryption` (nonce || ciphertext || tag, the user and factor ids as
/// associated data), recovery codes keyed with HMAC-SHA256 under the key for `SecretPurpose.recoveryCodes`.
public struct TOTPSecrets: SecondFactorSecrets {
    private let sealingKey: Data
    private let recoveryKey: Data

    public init(secret: ServerSecret) {
        let deriver = SecretKeyDeriver(secret: secret)
        sealingKey = deriver.key(for: .totpSecretEncryption)
        recoveryKey = deriver.key(for: .recoveryCodes)
    }

    public func makeTOTPSecret() -> Data {
        Self.randomBytes(20)
    }

    /// RFC 4226 §5.3's dynamic truncation of HMAC-SHA1(secret, step as 8 big-endian bytes), mod 10^6.
    public func totpCode(secret: Data, step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Data($0) }
        let mac = [UInt8](HMACSHA1.authenticate(counter, key: secret))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let code = binary % 1_000_000
        let text = String(code)
        return String(repeating: "0", count: TOTPPolicy.digits - text.count) + text
    }

    public func seal(totpSecret secret: Data, userID: UserID, factorID: FactorID) throws -> Data {
        let box = try AESGCM.seal(secret, key: sealingKey, associatedData: Self.associatedData(userID, factorID))
        return box.nonce + box.ciphertext
    }

    public func openTOTPSecret(_ sealed: Data, userID: UserID, factorID: FactorID) throws -> Data {
        let nonce = sealed.prefix(AESGCM.nonceByteCount)
        let box = AESGCM.SealedBox(ciphertext: Data(sealed.dropFirst(AESGCM.nonceByteCount)), nonce: Data(nonce))
        return try AESGCM.open(box, key: sealingKey, associatedData: Self.associatedData(userID, factorID))
    }

    /// 10 random bytes, 5 bits at a time: 16 characters, exactly 80 bits, no bias.
    public func makeRecoveryCode() -> String {
        let bytes = Self.randomBytes(10)
        var bits = 0
        var buffer = 0
        var characters: [Character] = []
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                characters.append(RecoveryCodeText.alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        return String(characters)
    }

    public func digest(recoveryCode: String, userID: UserID) -> Data {
        HMACSHA256.authenticate(Data("latch-recovery-code\u{0}\(userID)\u{0}\(recoveryCode)".utf8), key: recoveryKey)
    }

    private static func associatedData(_ userID: UserID, _ factorID: FactorID) -> Data {
        Data("latch-totp-secret\u{0}\(userID)\u{0}\(factorID)".utf8)
    }

    private static func randomBytes(_ count: Int) -> Data {
        do {
            return Data(try SecureRandom.bytes(count: count))
        } catch {
            // No entropy is no secret: failing loudly beats a guessable factor.
            fatalError("the CSPRNG failed: \(error)")
        }
    }
}
