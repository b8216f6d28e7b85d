import Foundation

/// Keeps the session for the life of the process: tests, previews, and apps that want no persistence.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
    // `Mutex` needs macOS 15 / iOS 18; the package supports 14 / 17. Every access holds `lock`.
    private let lock = NSLock()
    private var session: Session?
    private var deviceToken: String?
    private var pendingEmailSignIn: PendingEmailSignIn?

    public init(session: Session? = nil, deviceToken: String? = nil, pendingEmailSignIn: PendingEmailSignIn? = nil) {
        self.session = session
        self.deviceToken = deviceToken
        self.pendingEmailSignIn = pendingEmailSignIn
    }

    public func loadSession() -> Session? { lock.withLock { session } }
    public func saveSession(_ session: Session) { lock.withLock { self.session = session } }
    public func clearSession() { lock.withLock { session = nil } }
    public func loadDeviceToken() -> String? { lock.withLock { deviceToken } }
    public func saveDeviceToken(_ token: String) { lock.withLock { deviceToken = token } }
    public func loadPendingEmailSignIn() -> PendingEmailSignIn? { lock.withLock { pendingEmailSignIn } }
    public func savePendingEmailSignIn(_ attempt: PendingEmailSignIn) { lock.withLock { pendingEmailSignIn = attempt } }
    public func clearPendingEmailSignIn() { lock.withLock { pendingEmailSignIn = nil } }
}
