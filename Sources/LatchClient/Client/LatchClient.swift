import DeepLinkRouting
import Foundation

/// The app's client of a Latch server: sign-up, the mailed links, sign-in (by password, or by mail:
/// LatchClient+EmailSignIn.swift; with a second factor: LatchClient+MFASignIn.swift; with a passkey:
/// LatchClient+Passkeys.swift; with Apple: LatchClient+Apple.swift), re-authentication before privileged changes
/// (LatchClient+Reauthentication.swift), the second factor's, the passkeys' and the linked identities' management
/// (LatchClient+MFAFactors.swift, LatchClient+Passkeys.swift, LatchClient+Apple.swift), the session and its refresh.
///
/// ```swift
/// let latch = LatchClient(baseURL: URL(string: "https://auth.example.com")!, store: KeychainSessionStore())
/// try await latch.signIn(email: email, password: password)
/// let user = try await latch.me()            // refreshed before expiry and on a 401, transparently
/// ```
///
/// The session lives in a `SessionStore` and is loaded at init, so the auth state is known at once. Calls that
/// need the session (`me`, `signOut`, `accessToken`) refresh the access token when it expires within
/// `refreshLeeway` and once more when the server answers 401; concurrent callers share one refresh (see
/// LatchClient+Refresh.swift). When the server says the session is over (`refresh_token_reused`,
/// `invalid_session`, `session_expired`, `user_disabled`), the client forgets it and reports `.signedOut` on
/// `authStateChanges()`.
///
/// An actor: every change of the session happens on it, between the awaits of the requests.
public actor LatchClient {
    let api: APIConnection
    let store: any SessionStore
    /// Refresh when the access token expires within this many seconds; the 401 path covers a device clock that
    /// is off by more.
    let refreshLeeway: TimeInterval
    let now: @Sendable () -> Date

    /// The current session; nil when signed out. Written only by `adopt` and `endSession`.
    private(set) var session: Session?
    /// The sign-in waiting for its second factor, if any: its ticket lives here only, never in the store (it holds
    /// no token, and must not outlive the process). Written only by `awaitSecondFactor`, `abandonSecondFactor`,
    /// `adoptSignIn` and `endSession`.
    private(set) var pendingSecondFactor: (ticket: MFATicket, methods: [MFAMethod])?
    /// The refresh in flight, shared by every caller that needs a new access token meanwhile.
    var refreshTask: Task<Result<Session, LatchError>, Never>?
    private var observers: [UUID: AsyncStream<AuthStateChange>.Continuation] = [:]

    /// - Parameters:
    ///   - baseURL: the server's origin, with a path prefix if it is served under one (`https://example.com/auth`).
    ///   - store: where the session and the device token persist; `KeychainSessionStore()` in an Apple app.
    ///   - transport: how requests travel; tests pass a fake.
    ///   - preferredLanguages: the user's languages, most preferred first, sent as every request's
    ///     `Accept-Language` (at most six, with descending q-values; none: no header). The server picks the language
    ///     of a new account's mail from it; `signUp(email:password:locale:)` and `setLocale(_:)` name one instead.
    ///   - refreshLeeway: seconds before the access token's expiry at which it is refreshed ahead of a call.
    ///   - now: the clock the expiries are compared with.
    public init(
        baseURL: URL,
        store: any SessionStore = InMemorySessionStore(),
        transport: any HTTPTransport = URLSessionTransport(),
        preferredLanguages: [String] = Locale.preferredLanguages,
        refreshLeeway: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        api = APIConnection(baseURL: baseURL, transport: transport, preferredLanguages: preferredLanguages)
        self.store = store
        self.refreshLeeway = refreshLeeway
        self.now = now
        session = Self.restoredSession(from: store, now: now())
    }

    /// The stored session, unless it can no longer be refreshed; an unreadable one counts as none.
    private static func restoredSession(from store: any SessionStore, now: Date) -> Session? {
        guard let stored = try? store.loadSession() else { return nil }
        guard stored.refreshTokenExpiresAt > now else {
            try? store.clearSession()
            return nil
        }
        return stored
    }

    // MARK: - State

    /// The signed-in user, as of the last answer; nil when signed out.
    public var currentUser: User? { session?.user }

    /// The current state, then every change, for as long as the caller iterates. Each call is a subscription
    /// of its own; iterating in a task that is later cancelled ends it.
    public func authStateChanges() -> AsyncStream<AuthStateChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthStateChange.self)
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(state)
        return stream
    }

    private var state: AuthStateChange {
        if let session { return .signedIn(session.user) }
        if let pending = pendingSecondFactor {
            return .secondFactorRequired(ticket: pending.ticket, methods: pending.methods)
        }
        return .signedOut
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func publish(_ change: AuthStateChange) {
        for observer in observers.values { observer.yield(change) }
    }

    // MARK: - Session changes

    /// Makes `new` the session (sign-in, confirmation, refresh) and persists it. Reports `.signedIn` unless the
    /// same user was signed in already. A store failure is thrown after the session is in use in memory.
    func adopt(_ new: Session) throws(LatchError) {
        let before = session?.user
        session = new
        if before != new.user { publish(.signedIn(new.user)) }
        try persist { try $0.saveSession(new) }
    }

    /// Makes a sign-in's session the session (`adopt`): a sign-in waiting for its second factor is over with it,
    /// whichever completed.
    func adoptSignIn(_ new: Session) throws(LatchError) {
        pendingSecondFactor = nil
        try adopt(new)
    }

    /// Keeps a sign-in waiting for its second factor, replacing an earlier one, and reports it unless signed in: a
    /// session that exists stays, and the state with it, until the second factor replaces it.
    func awaitSecondFactor(ticket: MFATicket, methods: [MFAMethod]) {
        pendingSecondFactor = (ticket, methods)
        if session == nil { publish(.secondFactorRequired(ticket: ticket, methods: methods)) }
    }

    /// Forgets the sign-in waiting for its second factor (given up, expired, or refused by the server), and reports
    /// `.signedOut` when it was the state.
    func abandonSecondFactor() {
        guard pendingSecondFactor != nil else { return }
        pendingSecondFactor = nil
        if session == nil { publish(.signedOut) }
    }

    /// The user as the server describes it now; reported when it differs from the session's.
    func update(_ user: User) throws(LatchError) {
        guard var current = session, current.user.id == user.id, current.user != user else { return }
        current.user = user
        session = current
        publish(.signedIn(user))
        try persist { try $0.saveSession(current) }
    }

    /// Puts a new access token of the session `used` in place (a re-authentication's): the refresh token, the user
    /// and the auth state stay. A session that moved on meanwhile is left as it is: a refresh's token is as good (a
    /// refresh keeps the proof, and a refused token is refreshed and retried anyway), and a session ended meanwhile
    /// is not brought back (`notSignedIn`).
    func replaceAccessToken(_ token: String, expiresAt: Date, of used: Session) throws(LatchError) {
        guard let current = session else { throw .notSignedIn }
        guard current.refreshToken == used.refreshToken else { return }
        let new = Session(
            accessToken: token, refreshToken: current.refreshToken, accessTokenExpiresAt: expiresAt,
            refreshTokenExpiresAt: current.refreshTokenExpiresAt, user: current.user)
        session = new
        try persist { try $0.saveSession(new) }
    }

    /// Forgets the session here (the device token stays) and reports `.signedOut` if there was one. A sign-in
    /// waiting for its second factor meanwhile is forgotten too: nothing of the signed-in time outlives it.
    ///
    /// A store that fails to clear is not reported: the session it keeps is over at the server, so the next
    /// launch that loads it meets the same refusal and clears it again.
    func endSession() {
        guard session != nil else { return }
        session = nil
        pendingSecondFactor = nil
        publish(.signedOut)
        try? store.clearSession()
    }

    /// Runs a store operation, reporting its failure as `LatchError.storage`.
    func persist<T>(_ operation: (any SessionStore) throws -> T) throws(LatchError) -> T {
        do {
            return try operation(store)
        } catch {
            throw .storage(String(describing: error))
        }
    }
}
