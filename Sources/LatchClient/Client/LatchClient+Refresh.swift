import Foundation

/// The access token's life: refreshed ahead of its expiry and after a 401, one refresh for all callers.
///
/// Why one: each refresh spends the presented refresh token, and presenting a spent one again is what the server
/// treats as theft (`refresh_token_reused`, the whole family revoked). Twenty calls that each refreshed on their
/// own would sign the user out. So the first caller that needs a new token starts one `Task` (`refreshTask`) and
/// every caller arriving before it ends awaits the same task. A caller whose 401 arrives after that refresh
/// ended sees that the session moved on (its refresh token is no longer the current one) and retries with the
/// current token instead of refreshing again. The task is unstructured, so a cancelled caller does not cancel
/// the refresh the others wait for.
extension LatchClient {
    /// An access token valid for at least `refreshLeeway` seconds, refreshed first if needed, for calls to the
    /// app's own servers that accept Latch's bearer tokens.
    public func accessToken() async throws(LatchError) -> String {
        try await usableSession().accessToken
    }

    /// Rotates the session's tokens now, sharing a refresh already in flight. The session ends, and this throws,
    /// when the server says it is over.
    @discardableResult
    public func refreshSession() async throws(LatchError) -> Session {
        guard let current = session else { throw .notSignedIn }
        return try await refreshed(replacing: current)
    }

    /// Sends a bearer request: with a token refreshed ahead of expiry, and once more after a refresh if the
    /// server refuses the token.
    func authorized<Request: APIRequest>(_ request: Request) async throws(LatchError) -> Request.Response {
        try await authorizedAnswer(request).response
    }

    /// `authorized`, with the session whose access token the request went out with.
    func authorizedAnswer<Request: APIRequest>(_ request: Request) async throws(LatchError)
        -> (response: Request.Response, session: Session) {
        let used = try await usableSession()
        do throws(LatchError) {
            return (try await send(request, with: used, isRetry: false), used)
        } catch let error where error.rejectsAccessToken {
            let fresh = try await refreshed(replacing: used)
            return (try await send(request, with: fresh, isRetry: true), fresh)
        }
    }

    /// The current session, refreshed first when its access token expires within `refreshLeeway`.
    func usableSession() async throws(LatchError) -> Session {
        guard let current = session else { throw .notSignedIn }
        if current.accessTokenExpiresAt.timeIntervalSince(now()) > refreshLeeway { return current }
        return try await refreshed(replacing: current)
    }

    /// A session newer than `stale`: the one of the refresh in flight, the current one if a refresh finished
    /// since `stale` was read, or else the one of a refresh started now.
    func refreshed(replacing stale: Session) async throws(LatchError) -> Session {
        if let refreshTask { return try await refreshTask.value.get() }
        guard let current = session else { throw .notSignedIn }
        if current.refreshToken != stale.refreshToken { return current }
        let task = Task { await rotate(current) }
        refreshTask = task
        return try await task.value.get()
    }

    /// One refresh. Runs on the actor except for the request, so its result lands atomically: the shared task
    /// is cleared and the session replaced (or ended) before any waiter resumes.
    private func rotate(_ stale: Session) async -> Result<Session, LatchError> {
        let result: Result<Session, LatchError>
        do throws(LatchError) {
            result = .success(try await api.send(RefreshRequest(refreshToken: stale.refreshToken)))
        } catch {
            result = .failure(error)
        }
        refreshTask = nil
        // Signed out, or in as someone else, while the refresh was in flight: its answer is no one's.
        guard session?.refreshToken == stale.refreshToken else { return .failure(.notSignedIn) }
        switch result {
        case .success(let fresh):
            do throws(LatchError) {
                try adopt(fresh)
            } catch {
                return .failure(error)
            }
        case .failure(let error) where error.endsSession:
            endSession()
        case .failure:
            break  // no answer or a server error: the session may still be good; the next call tries again
        }
        return result
    }

    /// Sends with `used`'s access token. A refusal that ends the session ends it here too, unless the session
    /// changed meanwhile (another caller's refresh, a new sign-in). A 401 on the first try is left to `authorized`
    /// to refresh; on the retry, with a token just refreshed, it means the session was ended.
    private func send<Request: APIRequest>(_ request: Request, with used: Session, isRetry: Bool)
        async throws(LatchError) -> Request.Response {
        do throws(LatchError) {
            return try await api.send(request, bearer: used.accessToken)
        } catch let error where error.endsSession && (isRetry || !error.rejectsAccessToken) {
            if session?.refreshToken == used.refreshToken { endSession() }
            throw error
        }
    }
}
