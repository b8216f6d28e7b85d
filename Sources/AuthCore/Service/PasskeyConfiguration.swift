import Foundation

/// The relying party passkeys are bound to (WebAuthn L3 §5.1.3, §13.4.9): its RP ID, the name authenticators show,
/// and the origins a ceremony may come from (`clientDataJSON.origin`).
public struct PasskeyConfiguration: Hashable, Sendable {
    /// `LATCH_PASSKEY_RP_ID`: the host of `LATCH_LINK_BASE` unless set. A passkey made for one RP ID never signs in
    /// under another, so it must not change once users have passkeys.
    public var rpID: String
    /// `rp.name`: `LATCH_PRODUCT_NAME`.
    public var rpName: String
    /// `https://<rp id>`, one `android:apk-key-hash:` origin per signing certificate of the Android app in the
    /// assetlinks configuration, and `LATCH_PASSKEY_ORIGINS` (ARCHITECTURE.md, "Passkeys").
    public var origins: Set<String>
    /// How long an options call's challenge may be answered (5 min, the `timeout` the options carry).
    public var challengeTTL: TimeInterval = 5 * 60

    public init(rpID: String, rpName: String, origins: Set<String>) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
    }

    /// The defaults for a link base: its host is the RP ID and `https://` the one origin.
    public init(linkBase: URL, rpName: String = "Latch") {
        let host = linkBase.host ?? "localhost"
        self.init(rpID: host, rpName: rpName, origins: ["https://\(host)"])
    }

    /// The origin an Android app signed with a certificate of this SHA-256 fingerprint (`AB:CD:…`, as keytool
    /// prints it) sends: `android:apk-key-hash:` and the fingerprint's 32 bytes in base64url without padding.
    /// Nil when the fingerprint is not 32 hex bytes.
    public static func androidOrigin(certificateFingerprint fingerprint: String) -> String? {
        let hex = fingerprint.split(separator: ":").joined()
        guard hex.count == 64 else { return nil }
        var bytes = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return "android:apk-key-hash:" + Base64URLText.encode(bytes)
    }
}
