/// Where `LatchClient` keeps what must survive a relaunch: the session, and apart from it the device token.
///
/// The device token marks this device as trusted for sign-in (failed guesses elsewhere cannot lock its owner
/// out), so it outlives the session: `clearSession()` must leave it. `KeychainSessionStore` is the store for
/// Apple platforms; `FileSessionStore` and `InMemorySessionStore` serve Linux and tests.
///
/// The client calls these from its actor, one at a time; a store shared by several clients must be safe for
/// concurrent use.
public protocol SessionStore: Sendable {
    func loadSession() throws -> Session?
    func saveSession(_ session: Session) throws
    func clearSession() throws
    func loadDeviceToken() throws -> String?
    func saveDeviceToken(_ token: String) throws
}
