/// Why a one-time token cannot be redeemed now. One rule decides it, in this order, and the store applies it
/// where it redeems (the redeeming statement answers with it) and where it only looks (`TokenStore.checkToken`):
/// unknown (or another purpose), used, superseded (replaced, or issued before the user's password last changed),
/// expired, user disabled, to confirm an address, already confirmed, and, to sign in, a secret that is not the
/// asking app instance's.
public enum TokenRefusal: String, Hashable, Sendable, CaseIterable {
    case unknown
    case used
    case superseded
    case expired
    case userDisabled = "user_disabled"
    case alreadyConfirmed = "already_confirmed"
    /// A sign-in record redeemed without the secret of the app instance that asked for it.
    case wrongBinding = "wrong_binding"

    /// The error a link's redemption answers with.
    public var error: AuthError {
        switch self {
        case .unknown: .invalidToken
        case .used: .tokenUsed
        case .superseded: .tokenSuperseded
        case .expired: .tokenExpired
        case .userDisabled: .userDisabled
        case .alreadyConfirmed: .alreadyConfirmed
        case .wrongBinding: .invalidToken
        }
    }
}

/// What a redeeming store method did: redeemed the token (and made the writes that go with it), or refused it
/// and wrote nothing.
public enum Redemption<Value: Sendable>: Sendable {
    case redeemed(Value)
    case refused(TokenRefusal)

    /// The value when redeemed.
    public var value: Value? {
        if case .redeemed(let value) = self { value } else { nil }
    }

    /// The reason when refused.
    public var refusal: TokenRefusal? {
        if case .refused(let refusal) = self { refusal } else { nil }
    }

    /// The value, or the error a link's redemption answers with (`TokenRefusal.error`).
    public func get() throws(AuthError) -> Value {
        switch self {
        case .redeemed(let value): return value
        case .refused(let refusal): throw refusal.error
        }
    }
}

extension Redemption: Equatable where Value: Equatable {}
extension Redemption: Hashable where Value: Hashable {}
