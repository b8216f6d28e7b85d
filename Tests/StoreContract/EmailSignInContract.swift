import AuthCore
import Foundation
import Testing

/// `TokenStore` for sign-in records: the quiet period and supersession of `issueToken`, and
/// `completeEmailSignIn`'s writes (its refusals follow the one rule, in `TokenRuleContract`).
enum EmailSignInContract {
    static let cases: [ContractCase] = [
        ContractCase("TokenStore.issueToken: a sign-in record within the quiet period is not written; after it, it "
                     + "supersedes older sign-in records only", quietPeriod),
        ContractCase("TokenStore.completeEmailSignIn: a wrong binding counts on the record, spends it at the limit, "
                     + "and writes nothing else", wrongBinding),
        ContractCase("TokenStore.completeEmailSignIn: an unconfirmed user is confirmed, its password unset and its "
                     + "version moved, and the session is on the new version", unconfirmedUser),
        ContractCase("TokenStore.completeEmailSignIn: a confirmed user keeps its password; the session and the device "
                     + "are written", confirmedUser),
    ]

    /// A sign-in record for `user` created at `created`, quiet for the minute before it.
    static func signInToken(_ f: ContractFixture, for user: UserRecord, at created: TimeInterval) -> NewToken {
        var token = f.token(for: user, .signIn, at: created, ttl: 900, code: f.digest())
        token.quietSince = f.at(created - 60)
        return token
    }

    static func quietPeriod(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("quiet@example.com")
        let reset = try f.issued(.reset, for: user, at: 5)
        let first = signInToken(f, for: user, at: 10)
        try f.store.issueToken(first)
        let early = signInToken(f, for: user, at: 40)
        try f.store.issueToken(early)
        #expect(try f.store.lookupToken(hash: early.hash) == nil, "within the quiet period: nothing written")
        #expect(try f.store.checkToken(hash: first.hash, purpose: .signIn, now: f.at(41)).refusal == nil,
                "and the first record still works")
        let later = signInToken(f, for: user, at: 71)
        try f.store.issueToken(later)
        #expect(try f.store.checkToken(hash: first.hash, purpose: .signIn, now: f.at(80)).refusal == .superseded)
        #expect(try f.store.checkToken(hash: later.hash, purpose: .signIn, now: f.at(80)).refusal == nil)
        #expect(try f.store.checkToken(hash: reset.hash, purpose: .reset, now: f.at(80)).refusal == nil,
                "a pending reset is not a sign-in record")
    }

    static func wrongBinding(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("bound@example.com")
        let token = try f.issued(.signIn, for: user, at: 10, ttl: 900)
        let other = f.digest()
        for _ in 1...3 {
            let result = try f.signInByEmail(.link(hash: token.hash), at: 20, binding: other, limit: 3)
            #expect(result.redemption.refusal == .wrongBinding)
            #expect(try f.found(result.credentials) == nil, "no session")
            #expect(try f.store.findTrustedDevice(tokenHash: result.device) == nil, "no device")
        }
        #expect(try f.signInByEmail(.link(hash: token.hash), at: 21).redemption.refusal == .expired,
                "spent at the limit")
        #expect(try f.reload(user) == user, "the user untouched")
    }

    static func unconfirmedUser(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("fresh@example.com")
        let token = try f.issued(.signIn, for: user, at: 10, ttl: 900)
        let result = try f.signInByEmail(.link(hash: token.hash), at: 20)
        let signedIn = try #require(result.redemption.value)
        #expect(signedIn.isConfirmed && !signedIn.hasPassword)
        #expect(signedIn.passwordVersion == user.passwordVersion + 1)
        #expect(try f.reload(user) == signedIn)
        let session = try #require(try f.found(result.credentials))
        #expect(session.passwordVersion == signedIn.passwordVersion && session.authenticatedAt == f.at(20))
        #expect(try f.store.checkToken(hash: confirm.hash, purpose: .confirm, now: f.at(30)).refusal == .superseded,
                "the sign-up's confirm link ends with its password")
    }

    static func confirmedUser(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("known@example.com")
        let token = try f.issued(.signIn, for: user, at: 10, ttl: 900)
        let result = try f.signInByEmail(.link(hash: token.hash), at: 20)
        #expect(result.redemption.value == user)
        #expect(try f.reload(user) == user)
        #expect(try f.found(result.credentials)?.userID == user.id)
        #expect(try f.store.findTrustedDevice(tokenHash: result.device)?.userID == user.id)
        #expect(try f.store.lookupToken(hash: token.hash)?.usedAt == f.at(20))
    }
}
