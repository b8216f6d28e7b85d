import AuthCore
import Foundation
import Testing

/// `TokenRefusal`, the one rule of redeemability, in its order, through every method that applies it:
/// `checkToken` for each purpose and the four redeeming completions. Each state gets a user of its own, signed in
/// and with a failure on record, so that "a refusal writes nothing" can be seen on the user, the token, the
/// sessions and the failures alike.
enum TokenRuleContract {
    static let cases: [ContractCase] = Redeemer.all.map { redeemer in
        ContractCase("\(redeemer.name): refuses by TokenRefusal in its order and then writes nothing") { f in
            try follow(redeemer, f)
        }
    }

    /// Every attempt is made at this time.
    static let now: TimeInterval = 100

    static func follow(_ redeemer: Redeemer, _ f: ContractFixture) throws {
        for (index, state) in TokenState.all.enumerated() {
            let user = try f.user("state\(index)@example.com").user
            try f.signIn(user, at: 2)
            let emailKey = try f.address(user.email).key
            _ = try f.store.recordSignInFailure(emailKey: emailKey, at: f.at(3), forgetBefore: f.at(0))
            let (key, hash) = try state.make(f, redeemer.purpose, user)
            let before = try Observation(f, user: user, token: hash)
            let expected = state.expected(redeemer.purpose)
            let refusal = try redeemer.attempt(f, key, user, now)
            #expect(refusal == expected, "\(state.label)")
            if expected != nil || redeemer.onlyLooks {
                #expect(try Observation(f, user: user, token: hash) == before, "\(state.label): nothing written")
            }
            if state.label == TokenState.expiredLabel {
                #expect(try redeemer.attempt(f, key, user, now - 1) == nil,
                        "a second before its expiry the token still redeems: the refusal spent nothing")
            }
        }
    }
}

/// What a refused redemption must leave as it was.
struct Observation: Equatable {
    var user: UserRecord?
    var token: TokenRecord?
    var liveSessions: [SessionActivity]
    var failures: SignInFailures?

    init(_ f: ContractFixture, user: UserRecord, token hash: Data?) throws {
        self.user = try f.store.findUser(id: user.id)
        self.token = try hash.flatMap { try f.store.lookupToken(hash: $0) }
        liveSessions = try f.store.liveSessions(userID: user.id, now: f.at(TokenRuleContract.now))
        failures = try f.store.signInFailures(emailKey: try f.address(user.email).key)
    }
}

/// A method that applies the rule to a token named by `key`: the refusal, or nil when it redeemed (or, for
/// `checkToken`, would redeem).
struct Redeemer: Sendable {
    let name: String
    let purpose: TokenPurpose
    /// `checkToken` never writes, whatever it answers.
    var onlyLooks = false
    let attempt: @Sendable (ContractFixture, TokenKey, UserRecord, TimeInterval) throws -> TokenRefusal?

    static let all: [Redeemer] = TokenPurpose.allCases.map(check) + [
        Redeemer(name: "TokenStore.completeConfirmation", purpose: .confirm) { f, key, _, seconds in
            let credentials = f.credentials(at: seconds)
            let redemption = try f.store.completeConfirmation(
                key, now: f.at(seconds), sessionID: SessionID(), credentials: credentials, audit: nil)
            if redemption.refusal != nil {
                #expect(try f.store.findSession(accessTokenHash: credentials.accessTokenHash) == nil, "no session")
            }
            return redemption.refusal
        },
        Redeemer(name: "TokenStore.completeEmailConfirmation", purpose: .confirm) { f, key, _, seconds in
            try f.store.completeEmailConfirmation(key, now: f.at(seconds)).refusal
        },
        Redeemer(name: "TokenStore.completePasswordReset", purpose: .reset) { f, key, user, seconds in
            try f.reset(key, by: user, at: seconds).refusal
        },
        Redeemer(name: "TokenStore.completeEmailChange", purpose: .emailChange) { f, key, _, seconds in
            try f.store.completeEmailChange(key, now: f.at(seconds)).refusal
        },
        Redeemer(name: "TokenStore.completeInvitation", purpose: .invite) { f, key, user, seconds in
            let session = InvitationAcceptance.OpenedSession(id: SessionID(), credentials: f.credentials(at: seconds))
            let redemption = try f.acceptInvite(key, by: user, at: seconds, session: session)
            if redemption.refusal != nil {
                #expect(try f.found(session.credentials) == nil, "no session")
            }
            return redemption.refusal
        },
        Redeemer(name: "TokenStore.completeEmailSignIn", purpose: .signIn) { f, key, _, seconds in
            let attempt = try f.signInByEmail(key, at: seconds)
            if attempt.redemption.refusal != nil {
                #expect(try f.store.findSession(accessTokenHash: attempt.credentials.accessTokenHash) == nil,
                        "no session")
            }
            return attempt.redemption.refusal
        },
    ]

    /// `checkToken` for `purpose`: a token it would redeem answers with its user as stored.
    static func check(_ purpose: TokenPurpose) -> Redeemer {
        Redeemer(name: "TokenStore.checkToken(\(purpose.rawValue))", purpose: purpose, onlyLooks: true) {
            f, key, user, seconds in
            guard case .link(let hash) = key else { throw ContractFailure.missing("a link for checkToken") }
            let redemption = try f.store.checkToken(hash: hash, purpose: purpose, now: f.at(seconds))
            if let value = redemption.value { #expect(value == (try f.reload(user))) }
            return redemption.refusal
        }
    }

    /// Spends the token `hash` of `purpose` with the redeemer of its purpose, as a user would.
    static func spend(_ f: ContractFixture, _ purpose: TokenPurpose, _ hash: Data, of user: UserRecord,
                      at seconds: TimeInterval) throws
    {
        let refusal: TokenRefusal? = switch purpose {
        case .confirm: try f.store.completeEmailConfirmation(.link(hash: hash), now: f.at(seconds)).refusal
        case .reset: try f.reset(.link(hash: hash), by: user, at: seconds).refusal
        case .emailChange: try f.store.completeEmailChange(.link(hash: hash), now: f.at(seconds)).refusal
        case .signIn: try f.signInByEmail(.link(hash: hash), at: seconds).redemption.refusal
        case .invite: try f.acceptInvite(.link(hash: hash), by: user, at: seconds).refusal
        }
        #expect(refusal == nil, "spending a live \(purpose.rawValue) token")
    }
}

/// A token in one state (or several at once, to pin the rule's order), with the refusal each purpose expects;
/// nil: it redeems.
struct TokenState: Sendable {
    let label: String
    let expected: @Sendable (TokenPurpose) -> TokenRefusal?
    /// Makes the state for a fresh `user` (created at 0 s, signed in at 2 s); returns the key and the digest.
    let make: @Sendable (ContractFixture, TokenPurpose, UserRecord) throws -> (TokenKey, Data?)

    init(_ label: String, _ expected: TokenRefusal?,
         _ make: @escaping @Sendable (ContractFixture, TokenPurpose, UserRecord) throws -> Data?)
    {
        self.init(label, { _ in expected }, make)
    }

    init(_ label: String, _ expected: @escaping @Sendable (TokenPurpose) -> TokenRefusal?,
         _ make: @escaping @Sendable (ContractFixture, TokenPurpose, UserRecord) throws -> Data?)
    {
        self.label = label
        self.expected = expected
        self.make = { f, purpose, user in
            let hash = try make(f, purpose, user)
            return (.link(hash: hash ?? f.digest()), hash)
        }
    }

    static let expiredLabel = "expired: `now` is its expiry (exclusive)"

    static let all: [TokenState] = [
        TokenState("live", nil) { f, purpose, user in try f.issued(purpose, for: user).hash },
        TokenState("never issued", .unknown) { _, _, _ in nil },
        TokenState("of another purpose", .unknown) { f, purpose, user in
            try f.issued(purpose == .reset ? .confirm : .reset, for: user).hash
        },
        TokenState("used", .used) { f, purpose, user in
            let token = try f.issued(purpose, for: user)
            try Redeemer.spend(f, purpose, token.hash, of: user, at: 50)
            return token.hash
        },
        // Wrong codes retire the code, never the link: strangers' guesses cannot spend the owner's mail.
        TokenState("live by its link, its code mistyped to the limit", nil) { f, purpose, user in
            let token = try f.issued(purpose, for: user, code: f.digest())
            try f.store.recordWrongCode(userID: user.id, purpose: purpose, at: f.at(50), limit: 1)
            return token.hash
        },
        TokenState("superseded (issued before a password reset)", .superseded) { f, purpose, user in
            try issuedBeforeAReset(f, purpose, user, at: 50)
        },
        TokenState(expiredLabel, .expired) { f, purpose, user in
            try f.issued(purpose, for: user, at: 10, ttl: TokenRuleContract.now - 10).hash
        },
        TokenState("of a disabled user", .userDisabled) { f, purpose, user in
            let token = try f.issued(purpose, for: user)
            try f.store.setDisabled(userID: user.id, at: f.at(50))
            return token.hash
        },
        TokenState("for an address confirmed already", { $0 == .confirm ? .alreadyConfirmed : nil }) { f, purpose, user in
            try f.store.markEmailConfirmed(userID: user.id, at: f.at(5))
            return try f.issued(purpose, for: user).hash
        },
        // Two states at once: the first in the rule's order wins.
        TokenState("used, and expired", .used) { f, purpose, user in
            let token = try f.issued(purpose, for: user, at: 10, ttl: TokenRuleContract.now - 10)
            try Redeemer.spend(f, purpose, token.hash, of: user, at: 50)
            return token.hash
        },
        TokenState("used, of a disabled user", .used) { f, purpose, user in
            let token = try f.issued(purpose, for: user)
            try Redeemer.spend(f, purpose, token.hash, of: user, at: 50)
            try f.store.setDisabled(userID: user.id, at: f.at(60))
            return token.hash
        },
        TokenState("superseded, and expired", .superseded) { f, purpose, user in
            try issuedBeforeAReset(f, purpose, user, at: 50, ttl: TokenRuleContract.now - 10)
        },
        TokenState("superseded, of a disabled user", .superseded) { f, purpose, user in
            let hash = try issuedBeforeAReset(f, purpose, user, at: 50)
            try f.store.setDisabled(userID: user.id, at: f.at(60))
            return hash
        },
        TokenState("expired, of a disabled user", .expired) { f, purpose, user in
            let token = try f.issued(purpose, for: user, at: 10, ttl: TokenRuleContract.now - 10)
            try f.store.setDisabled(userID: user.id, at: f.at(50))
            return token.hash
        },
        TokenState("of a disabled user, for an address confirmed already", .userDisabled) { f, purpose, user in
            try f.store.markEmailConfirmed(userID: user.id, at: f.at(5))
            let token = try f.issued(purpose, for: user)
            try f.store.setDisabled(userID: user.id, at: f.at(50))
            return token.hash
        },
    ]

    /// A token of `purpose`, then a reset of the password with another token: the reset moves the password
    /// version, which ends every link issued before it.
    static func issuedBeforeAReset(_ f: ContractFixture, _ purpose: TokenPurpose, _ user: UserRecord,
                                   at seconds: TimeInterval, ttl: TimeInterval = 3600) throws -> Data
    {
        let token = try f.issued(purpose, for: user, at: 10, ttl: ttl)
        let reset = try f.issued(.reset, for: user, at: 20)
        try Redeemer.spend(f, .reset, reset.hash, of: user, at: seconds)
        #expect(try f.store.lookupToken(hash: token.hash)?.passwordVersion == user.passwordVersion)
        #expect(try f.reload(user).passwordVersion == user.passwordVersion + 1)
        return token.hash
    }
}
