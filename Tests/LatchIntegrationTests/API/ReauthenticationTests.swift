import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// Proof of presence before privileged changes (ARCHITECTURE.md, security rule 11; RFC 9470) over real HTTP
/// against PostgreSQL: without a password a session must re-authenticate, the proof is a new access token of that
/// session only, it lasts `LATCH_PRIVILEGED_MAX_AGE`, and an attacker's guesses, stolen tokens and other
/// sessions' codes take nothing. Time passes on latchd's `ShiftedClock`, never by sleeping.
@Suite struct ReauthenticationTests {
    static let email = "owner@example.test"
    static let password = "correct horse battery"

    static func challenge(maxAge: Int) -> String {
        #"Bearer error="insufficient_user_authentication", max_age="# + String(maxAge)
    }

    /// The answer of a privileged request made without a password and without a recent proof: 401
    /// `reauthentication_required` with exactly one challenge, RFC 9470's.
    static func expectChallenge(_ response: HTTPTestClient.Response, maxAge: Int = 600,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 401 && ErrorJSON.code(response) == "reauthentication_required",
                "\(response.status) \(response.text)", sourceLocation: sourceLocation)
        #expect(response.headerValues("WWW-Authenticate") == [challenge(maxAge: maxAge)],
                "\(response.headerValues("WWW-Authenticate"))", sourceLocation: sourceLocation)
    }

    /// The three privileged requests, none with a password.
    static func privilegedRequests(_ app: TestApp, bearer: String) throws -> [HTTPTestClient.Response] {
        [
            try app.send("DELETE", "/v1/me", bearer: bearer),
            try app.send("POST", "/v1/password/change", ["new_password": "a brand new passphrase"], bearer: bearer),
            try app.send("POST", "/v1/email/change", ["new_email": "moved@example.test"], bearer: bearer),
        ]
    }

    /// Done when 6: without a password, deleting the account (and changing the password or the address) needs a
    /// re-authentication; the mailed code gives the session a new access token, the old one stops working, and
    /// with the new one the account is deleted without a password.
    @Test func deletingWithoutAPasswordNeedsAMailedCodeAndThenTheNewAccessToken() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm(Self.email, Self.password)
        for refused in try Self.privilegedRequests(app, bearer: session.access_token) {
            Self.expectChallenge(refused)
        }

        let asked = try app.requestReauthenticationCode(bearer: session.access_token)
        #expect(asked.status == 202 && asked.text == #"{"status":"code_sent"}"#, "\(asked.text)")
        #expect(try app.outboxCount(to: Self.email, kind: .reauthenticationCode) == 1)
        let code = try app.mailedCode(to: Self.email, kind: .reauthenticationCode)
        let proven = try app.reauthenticate(bearer: session.access_token, emailCode: code)
        #expect(proven.status == 200, "\(proven.text)")
        let fresh = try proven.json(ReauthenticatedJSON.self)
        #expect(fresh.access_token != session.access_token)
        #expect(try AccessTokenParts.claims(fresh.access_token)["sid"] as? String
            == AccessTokenParts.claims(session.access_token)["sid"] as? String, "a new token of the same session")

        let old = try app.me(session.access_token)
        #expect(old.status == 401 && ErrorJSON.code(old) == "invalid_session", "\(old.text)")
        let oldDelete = try app.send("DELETE", "/v1/me", bearer: session.access_token)
        #expect(oldDelete.status == 401 && ErrorJSON.code(oldDelete) == "invalid_session", "\(oldDelete.text)")
        #expect(try app.me(fresh.access_token).status == 200)

        let deleted = try app.send("DELETE", "/v1/me", bearer: fresh.access_token)
        #expect(deleted.status == 204, "\(deleted.text)")
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = $1", [Self.email]) == 0)
    }

    /// Done when 6: the proof lasts `LATCH_PRIVILEGED_MAX_AGE` (2 s here, passed on latchd's clock): within it a
    /// change goes through without a password, after it the challenge is back (with that max_age), and a new
    /// proof (the password, this time) opens it again.
    @Test func theProofLastsThePrivilegedMaxAgeOnly() throws {
        let clock = ShiftedClock()
        let app = try TestApp(environment: ["LATCH_PRIVILEGED_MAX_AGE": "2s"], clock: clock)
        defer { app.stop() }
        let session = try app.signUpAndConfirm(Self.email, Self.password)
        Self.expectChallenge(try app.send("DELETE", "/v1/me", bearer: session.access_token), maxAge: 2)

        let fresh = try app.reauthenticateByMail(bearer: session.access_token, email: Self.email)
        let within = try app.send("POST", "/v1/email/change", ["new_email": "moved@example.test"],
                                  bearer: fresh.access_token)
        #expect(within.status == 202, "\(within.text)")

        clock.advance(by: 3)
        #expect(try app.me(fresh.access_token).status == 200, "the token itself is still good")
        Self.expectChallenge(try app.send("DELETE", "/v1/me", bearer: fresh.access_token), maxAge: 2)

        let again = try app.reauthenticate(bearer: fresh.access_token, password: Self.password)
        #expect(again.status == 200, "\(again.text)")
        let deleted = try app.send("DELETE", "/v1/me", bearer: try again.json(ReauthenticatedJSON.self).access_token)
        #expect(deleted.status == 204, "\(deleted.text)")
    }

    /// An account with no password (made by signing in by mail over a squatter's unconfirmed sign-up) proves
    /// presence with a mailed code and only then sets a password.
    @Test func anAccountWithoutAPasswordReauthenticatesByMailToSetOne() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp(Self.email, "a squatters passphrase").status == 202)
        let session = try app.emailSignIn(Self.email)
        let guess = try app.reauthenticate(bearer: session.access_token, password: "a squatters passphrase")
        #expect(guess.status == 401 && ErrorJSON.code(guess) == "invalid_credentials", "\(guess.text)")
        Self.expectChallenge(try app.send("POST", "/v1/password/change", ["new_password": "my own passphrase"],
                                          bearer: session.access_token))

        let fresh = try app.reauthenticateByMail(bearer: session.access_token, email: Self.email)
        let set = try app.send("POST", "/v1/password/change", ["new_password": "my own passphrase"],
                               bearer: fresh.access_token)
        #expect(set.status == 200, "\(set.text)")
        #expect(try app.signIn(Self.email, "my own passphrase").status == 200)
    }
}

// MARK: - Attackers

extension ReauthenticationTests {
    /// Done when 7: wrong codes through one session (a stolen one) lock that session only: the owner's other
    /// session still re-authenticates, and password sign-in of the address is not locked.
    @Test func wrongCodesLockOnlyThatSession() throws {
        let app = try TestApp()
        defer { app.stop() }
        let stolen = try app.signUpAndConfirm(Self.email, Self.password)
        let owners = try app.session(Self.email, Self.password)

        #expect(try app.requestReauthenticationCode(bearer: stolen.access_token).status == 202)
        let code = try app.mailedCode(to: Self.email, kind: .reauthenticationCode)
        for offset in 1...5 {
            let guess = try app.reauthenticate(bearer: stolen.access_token,
                                               emailCode: EmailSignInTests.wrongCode(code, offset: offset))
            #expect(guess.status == 400 && ErrorJSON.code(guess) == "invalid_code", "\(guess.text)")
        }
        let locked = try app.reauthenticate(bearer: stolen.access_token, emailCode: code)
        #expect(locked.status == 429 && ErrorJSON.code(locked) == "rate_limited", "\(locked.text)")
        #expect(locked.header("Retry-After") != nil)
        let lockedPassword = try app.reauthenticate(bearer: stolen.access_token, password: Self.password)
        #expect(lockedPassword.status == 429, "the session is locked, whatever the proof: \(lockedPassword.text)")
        Self.expectChallenge(try app.send("DELETE", "/v1/me", bearer: stolen.access_token))

        let fresh = try app.reauthenticateByMail(bearer: owners.access_token, email: Self.email)
        #expect(try app.signIn(Self.email, Self.password).status == 200, "the address is not locked")
        let deleted = try app.send("DELETE", "/v1/me", bearer: fresh.access_token)
        #expect(deleted.status == 204, "\(deleted.text)")
    }

    /// Done when 7: an access token stolen before the owner re-authenticated cannot ride on the proof: it is
    /// dead (`invalid_session`, RFC 6750's challenge) for every request, the privileged ones included.
    @Test func aStolenOldAccessTokenCannotRideOnTheOwnersReauthentication() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm(Self.email, Self.password)
        let stolen = session.access_token
        let fresh = try app.reauthenticateByMail(bearer: session.access_token, email: Self.email)

        for ride in try Self.privilegedRequests(app, bearer: stolen) + [
            try app.reauthenticate(bearer: stolen, password: Self.password),
            try app.requestReauthenticationCode(bearer: stolen),
        ] {
            #expect(ride.status == 401 && ErrorJSON.code(ride) == "invalid_session", "\(ride.status) \(ride.text)")
            #expect(ride.headerValues("WWW-Authenticate") == [#"Bearer error="invalid_token""#])
        }
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = $1", [Self.email]) == 1)
        #expect(try app.outboxCount(to: Self.email, kind: .reauthenticationCode) == 1)
        #expect(try app.me(fresh.access_token).status == 200)
    }

    /// Done when 7: session A's code does not prove session B, whether or not B has a code of its own (it counts
    /// as B's wrong attempt); A's proof does not open B; each code still works on its own session.
    @Test func oneSessionsCodeDoesNotWorkOnAnother() throws {
        let app = try TestApp()
        defer { app.stop() }
        let first = try app.signUpAndConfirm(Self.email, Self.password)
        let second = try app.session(Self.email, Self.password)
        #expect(try app.requestReauthenticationCode(bearer: first.access_token).status == 202)
        let firstsCode = try app.mailedCode(to: Self.email, kind: .reauthenticationCode)

        let crossed = try app.reauthenticate(bearer: second.access_token, emailCode: firstsCode)
        #expect(crossed.status == 400 && ErrorJSON.code(crossed) == "invalid_code", "\(crossed.text)")
        #expect(try app.requestReauthenticationCode(bearer: second.access_token).status == 202)
        let secondsCode = try app.mailedCode(to: Self.email, kind: .reauthenticationCode)
        let crossedAgain = try app.reauthenticate(bearer: second.access_token, emailCode: firstsCode)
        #expect(crossedAgain.status == 400 && ErrorJSON.code(crossedAgain) == "invalid_code", "\(crossedAgain.text)")

        let proven = try app.reauthenticate(bearer: first.access_token, emailCode: firstsCode)
        #expect(proven.status == 200, "\(proven.text)")
        Self.expectChallenge(try app.send("DELETE", "/v1/me", bearer: second.access_token))
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = $1", [Self.email]) == 1)
        let secondProven = try app.reauthenticate(bearer: second.access_token, emailCode: secondsCode)
        #expect(secondProven.status == 200, "\(secondProven.text)")
    }

    /// Done when 7: `auth_time` is in every access token: the sign-in's (by password and by mail) at first, kept
    /// by a refresh, and moved to the re-authentication's by the proof (and kept by the next refresh). Compared
    /// with the tokens' own `iat` and with each other, on latchd's clock.
    @Test func authTimeIsTheSignInKeptByRefreshAndMovedByReauthentication() throws {
        let clock = ShiftedClock()
        let app = try TestApp(clock: clock)
        defer { app.stop() }
        func claims(_ token: String) throws -> (authTime: Int, issuedAt: Int) {
            let claims = try AccessTokenParts.claims(token)
            return (try #require(claims["auth_time"] as? Int, "\(claims)"), try #require(claims["iat"] as? Int))
        }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let signedIn = try app.session(Self.email, Self.password)
        let atSignIn = try claims(signedIn.access_token)
        #expect(atSignIn.authTime == atSignIn.issuedAt)
        let byMail = try app.emailSignIn(Self.email)
        let atMailSignIn = try claims(byMail.access_token)
        #expect(atMailSignIn.authTime == atMailSignIn.issuedAt)

        clock.advance(by: 5)
        let refreshed = try app.refresh(signedIn.refresh_token)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let afterRefresh = try refreshed.json(SessionJSON.self)
        let kept = try claims(afterRefresh.access_token)
        #expect(kept.authTime == atSignIn.authTime && kept.issuedAt >= atSignIn.issuedAt + 5, "\(kept) \(atSignIn)")

        clock.advance(by: 5)
        let fresh = try app.reauthenticateByMail(bearer: afterRefresh.access_token, email: Self.email)
        let moved = try claims(fresh.access_token)
        #expect(moved.authTime == moved.issuedAt && moved.authTime >= kept.issuedAt + 5, "\(moved) \(kept)")
        let until = try #require(ISO8601DateFormatter().date(from: fresh.reauthenticated_until))
        #expect(Int(until.timeIntervalSince1970) == moved.authTime + 600, "\(fresh.reauthenticated_until)")

        clock.advance(by: 5)
        let again = try app.refresh(afterRefresh.refresh_token)
        #expect(again.status == 200, "\(again.text)")
        let keptAgain = try claims(try again.json(SessionJSON.self).access_token)
        #expect(keptAgain.authTime == moved.authTime && keptAgain.issuedAt > moved.authTime, "\(keptAgain) \(moved)")
    }
}
