import AuthCore
import Foundation
import Testing

/// ARCHITECTURE.md, security rule 8: audit rows never hold tokens, passwords or hashes. Runs every flow, then scans every string.
@Suite struct AuditSecrecyTests {
    @Test func noFlowWritesASecretToTheAuditLog() throws {
        let h = Harness()
        let password = Harness.password
        let newPassword = "a brand new secret"
        let confirmed = try h.confirmedUser()
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(throws: AuthError.invalidCredentials) { try h.signIn("nobody@example.com", password: "ghost password") }
        let session = try h.signIn()
        let refreshed = try h.service.refresh(refreshToken: session.refreshToken, ip: Harness.ip, userAgent: nil)
        #expect(throws: AuthError.refreshTokenReused) { try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil) }
        try h.service.signOut(try h.service.authenticate(accessToken: confirmed.accessToken), scope: .local, ip: nil)
        try h.forgotPassword("alice@example.com", ip: Harness.ip)
        try h.service.resetPassword(token: try #require(h.generator.lastToken), newPassword: newPassword, ip: Harness.ip)
        _ = try h.service.signUp(email: "alice@example.com", password: password, ip: Harness.ip, userAgent: nil)

        let user = try #require(h.user())
        let digests = h.generator.tokens.map { h.generator.digest($0) }
        let secrets = [password, newPassword, "wrong password!", "ghost password", user.passwordHash,
                       refreshed.accessToken, refreshed.refreshToken]
            + h.generator.tokens
            + digests.map { String(decoding: $0, as: UTF8.self) }
            + digests.map { $0.base64EncodedString() }
        let strings = h.auditStrings
        #expect(Set(h.store.snapshot.audit.map(\.name)).isSuperset(of: [
            .signUp, .emailConfirmed, .signInFailed, .signInSucceeded, .refreshTokenReused, .sessionRevoked,
            .passwordResetRequested, .passwordReset, .signUpExistingEmail,
        ]))
        for secret in secrets {
            #expect(!strings.contains { $0.contains(secret) }, "audit holds a secret: \(secret)")
        }
        // The scan is meaningful: it sees the details that are there.
        #expect(strings.contains("wrong_password"))
    }
}
