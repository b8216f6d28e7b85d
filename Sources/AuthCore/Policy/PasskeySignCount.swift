/// WebAuthn L3 §6.1.1's signature counter rule: when the stored or the received counter is non-zero, the received
/// one must be greater; otherwise the authenticator may have been cloned. Two zeros are an authenticator that keeps
/// no counter (synced passkeys send 0), and pass.
public enum PasskeySignCount {
    public static func isAcceptable(stored: UInt32, received: UInt32) -> Bool {
        (stored == 0 && received == 0) || received > stored
    }
}
