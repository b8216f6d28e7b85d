import AuthCore
import Foundation
import Synchronization

/// A provider stand-in for the flows around the id_token checks and the token endpoints (the real checks are
/// IdentityProviders', tested in IdentityProvidersTests and against a local issuer in the integration tests). The
/// verifier answers what the test set (by default it refuses every token); the token endpoints record their calls
/// and answer the configured result. Sealing is reversible and bound to the job id, as the real sealing is.
public final class FakeIdentityProviders: IdentityTokenVerifier, IdentityProviderTokens, Sendable {
    public struct Calls: Sendable, Equatable {
        public var exchanged: [String] = []
        public var revoked: [String] = []

        public init(exchanged: [String] = [], revoked: [String] = []) {
            self.exchanged = exchanged
            self.revoked = revoked
        }
    }

    private struct State {
        var token: Result<VerifiedIdentityToken, IdentityTokenRejection> = .failure(.signature)
        var exchange: Result<String, ProviderCallError> = .success("refresh-1")
        var revoke: Result<Void, ProviderCallError> = .success(())
        var calls = Calls()
    }

    private let state = Mutex(State())

    public init() {}

    /// What the next verifications answer.
    public func answer(_ token: Result<VerifiedIdentityToken, IdentityTokenRejection>) {
        state.withLock { $0.token = token }
    }

    public func answerExchange(_ result: Result<String, ProviderCallError>) {
        state.withLock { $0.exchange = result }
    }

    public func answerRevoke(_ result: Result<Void, ProviderCallError>) {
        state.withLock { $0.revoke = result }
    }

    public var calls: Calls { state.withLock { $0.calls } }

    public func verify(idToken: String, from provider: IdentityProvider, now: Date)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
    {
        try state.withLock { $0.token }.get()
    }

    public func exchange(code: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError)
        -> String
    {
        let result = state.withLock { state in
            state.calls.exchanged.append(code)
            return state.exchange
        }
        return try result.get()
    }

    public func revoke(refreshToken: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError) {
        let result = state.withLock { state in
            state.calls.revoked.append(refreshToken)
            return state.revoke
        }
        try result.get()
    }

    public func seal(_ token: String, jobID: ProviderJobID) throws -> Data {
        Data((jobID.description + "|" + token).utf8)
    }

    public func open(_ sealed: Data, jobID: ProviderJobID) throws -> String {
        let text = String(decoding: sealed, as: UTF8.self)
        let prefix = jobID.description + "|"
        guard text.hasPrefix(prefix) else { throw ProviderCallError.permanent("sealed for another job") }
        return String(text.dropFirst(prefix.count))
    }
}
