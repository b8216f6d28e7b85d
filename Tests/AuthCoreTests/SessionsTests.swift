import AuthCore
import Foundation
import Testing

@Suite struct SessionsTests {
    @Test func accessTokenExpiresAfter15Minutes() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        h.clock.advance(by: 15 * 60 - 1)
        _ = try h.service.authenticate(accessToken: issued.accessToken)
        h.clock.advance(by: 1)
        #expect(throws: AuthError.sessionExpired) { try h.service.authenticate(accessToken: issued.accessToken) }
        #expect(throws: AuthError.invalidAccessToken) { try h.service.authenticate(accessToken: "garbage") }
    }

    @Test func refreshRotatesBothTokens() throws {
        let h = Harness()
        let first = try h.confirmedUser()
        h.clock.advance(by: 20 * 60)
        let second = try h.service.refresh(refreshToken: first.refreshToken, ip: "198.51.100.1", userAgent: "Other/2")
        #expect(second.accessToken != first.accessToken && second.refreshToken != first.refreshToken)
        #expect(second.user == first.user)
        #expect(second.accessTokenExpiresAt == h.clock.now().addingTimeInterval(15 * 60))
        let me = try h.service.authenticate(accessToken: second.accessToken)
        #expect(me.session.ip == "198.51.100.1")
        // The old access token is replaced by the new one.
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: first.accessToken) }
        _ = try h.service.refresh(refreshToken: second.refreshToken, ip: nil, userAgent: nil)
    }

    @Test func reusingARefreshTokenRevokesTheWholeFamily() throws {
        let h = Harness()
        let first = try h.confirmedUser()
        let other = try h.signIn()  // another device: a different family, must survive
        let second = try h.service.refresh(refreshToken: first.refreshToken, ip: nil, userAgent: nil)

        #expect(throws: AuthError.refreshTokenReused) {
            try h.service.refresh(refreshToken: first.refreshToken, ip: Harness.ip, userAgent: nil)
        }
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: second.accessToken) }
        // The family is dead now: its newest token is refused, without a second reuse alarm.
        #expect(throws: AuthError.invalidSession) {
            try h.service.refresh(refreshToken: second.refreshToken, ip: nil, userAgent: nil)
        }
        #expect(h.store.snapshot.audit.filter { $0.name == .refreshTokenReused }.count == 1)
        _ = try h.service.authenticate(accessToken: other.accessToken)
        _ = try h.service.refresh(refreshToken: other.refreshToken, ip: nil, userAgent: nil)
        #expect(h.store.snapshot.audit.contains { $0.name == .refreshTokenReused && $0.userID == first.user.id })
    }

    @Test func refreshTokenExpiresAfter30Days() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        h.clock.advance(by: 30 * 24 * 3600)
        #expect(throws: AuthError.sessionExpired) { try h.service.refresh(refreshToken: issued.refreshToken, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.invalidSession) { try h.service.refresh(refreshToken: "garbage", ip: nil, userAgent: nil) }
    }

    @Test func disabledUserCannotRefreshOrAuthenticate() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        try h.store.setDisabled(userID: issued.user.id, at: h.clock.now())
        #expect(throws: AuthError.userDisabled) { try h.service.refresh(refreshToken: issued.refreshToken, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.userDisabled) { try h.service.authenticate(accessToken: issued.accessToken) }
        // The refused refresh did not spend the token: re-enabled, it still works.
        try h.store.setDisabled(userID: issued.user.id, at: nil)
        _ = try h.service.refresh(refreshToken: issued.refreshToken, ip: nil, userAgent: nil)
    }

    @Test func localSignOutEndsOnlyThisSession() throws {
        let h = Harness()
        let phone = try h.confirmedUser()
        let laptop = try h.signIn()
        try h.service.signOut(try h.service.authenticate(accessToken: phone.accessToken), scope: .local, ip: Harness.ip)
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: phone.accessToken) }
        // A signed-out session's refresh token is a stale client, not theft: refused, audited as such.
        #expect(throws: AuthError.invalidSession) { try h.service.refresh(refreshToken: phone.refreshToken, ip: nil, userAgent: nil) }
        #expect(h.store.snapshot.audit.contains { $0.name == .revokedRefreshTokenPresented })
        #expect(!h.store.snapshot.audit.contains { $0.name == .refreshTokenReused })
        _ = try h.service.authenticate(accessToken: laptop.accessToken)
        let event = h.store.snapshot.audit.first { $0.name == .sessionRevoked }
        #expect(event?.detail["scope"] == "local" && event?.userID == phone.user.id)
    }

    @Test func globalSignOutEndsEverySession() throws {
        let h = Harness()
        let phone = try h.confirmedUser()
        let laptop = try h.signIn()
        try h.service.signOut(try h.service.authenticate(accessToken: phone.accessToken), scope: .global, ip: nil)
        for token in [phone.accessToken, laptop.accessToken] {
            #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: token) }
        }
        let event = h.store.snapshot.audit.last
        #expect(event?.name == .sessionRevoked && event?.detail["revoked_sessions"] == "2")
    }

    @Test func onlyDigestsOfSessionTokensAreStored() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let state = h.store.snapshot
        let stored = state.sessions.values.map(\.accessTokenHash) + Array(state.refreshTokens.keys)
        // The access token is signed; the session stores the digest of its jti.
        let tokenID = try #require(h.accessTokens.tokens[issued.accessToken]?.tokenID)
        #expect(stored.contains(h.generator.digest(tokenID)))
        #expect(stored.contains(h.generator.digest(issued.refreshToken)))
        for bytes in stored {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(issued.accessToken) && !text.contains(issued.refreshToken))
        }
    }
}
