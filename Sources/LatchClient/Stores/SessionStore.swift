/// Where `LatchClient` keeps what must survive a relaunch: the session, and apart from it the device token and
/// the pending sign-in by mail.
///
/// The device token marks this device as trusted for sign-in (failed guesses elsewhere cannot lock its owner
/// out), so it outlives the session: `clearSession()` must leave it. So must it leave the pending sign-in by
/// mail: it belongs to no session (it is how a signed-out user gets one), and a sign-out, or a session the server
/// ended, between asking for the mail and opening it must not void the link. The client drops that attempt
/// itself (`clearPendingEmailSignIn()`) once it completed or can no longer complete. `KeychainSessionStore` is
/// the store for Apple platforms; `FileSessionStore` and `InMemorySessionStore` serve Linux and tests.
///
/// The client calls these from its actor, one at a time; a store shared by several clients must be safe for
/// concurrent use.
public protocol SessionStore: Sendable {
    func loadSession() throws -> Session?
    func saveSession(_ session: Session) throws
    func clearSession() throws
    func loadDeviceToken() throws -> String?
    func saveDeviceToken(_ token: String) throws
    /// The sign-in by mail saved last and not cleared since, whatever its age (the client judges that).
    func loadPendingEmailSignIn() throws -> PendingEmailSignIn?
    /// Replaces the pending sign-in by mail: there is at most one. Keep it as safe as the session.
    func savePendingEmailSignIn(_ attempt: PendingEmailSignIn) throws
    /// Forgets the pending sign-in by mail; without one, does nothing.
    func clearPendingEmailSignIn() throws
}
