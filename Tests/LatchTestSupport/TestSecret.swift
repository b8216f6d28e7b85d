/// The server secret (`LATCH_SECRET_KEY`) every test daemon and latchctl run with: fixed, so a test can start a
/// second instance that agrees with the first, and obviously not one to deploy.
public enum TestSecret {
    /// base64 of the 32 bytes 0x00, 0x01, …, 0x1f.
    public static let base64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
}
