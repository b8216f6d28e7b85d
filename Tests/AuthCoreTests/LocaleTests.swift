import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The language of a user's mail: chosen at sign-up (the body's locale, else Accept-Language), changed with
/// `setLocale`, and used for every mail of the account; a known address's owner keeps theirs.
@Suite struct LocaleTests {
    @Test func signUpTakesTheBodysLocaleOverAcceptLanguage() throws {
        let h = Harness()
        _ = try h.service.signUp(email: "ann@example.com", password: Harness.password, locale: "fr-CA",
                                 acceptLanguage: "de", ip: nil, userAgent: nil)
        #expect(h.user("ann@example.com")?.locale == "fr")
        #expect(h.composer.requests.last?.locale == "fr")
        #expect(h.store.mails.last?.language == "fr")
    }

    @Test func signUpNegotiatesAcceptLanguage() throws {
        let h = Harness()
        _ = try h.service.signUp(email: "bo@example.com", password: Harness.password, acceptLanguage: "de-CH, fr;q=0.8",
                                 ip: nil, userAgent: nil)
        #expect(h.user("bo@example.com")?.locale == "de")
        #expect(h.composer.requests.last?.kind == .confirmEmail && h.composer.requests.last?.locale == "de")
        _ = try h.service.signUp(email: "cy@example.com", password: Harness.password, ip: nil, userAgent: nil)
        #expect(h.user("cy@example.com")?.locale == "en")
    }

    @Test func anUnsupportedLocaleIsRefusedWhateverTheAddress() throws {
        let h = Harness()
        try h.confirmedUser("dee@example.com")
        for email in ["dee@example.com", "new@example.com"] {
            #expect(throws: AuthError.unsupportedLocale) {
                try h.service.signUp(email: email, password: Harness.password, locale: "it", ip: nil, userAgent: nil)
            }
        }
    }

    @Test func aKnownAddressIsToldInItsOwnersLanguage() throws {
        let h = Harness()
        _ = try h.service.signUp(email: "eve@example.com", password: Harness.password, locale: "fr", ip: nil,
                                 userAgent: nil)
        _ = try h.service.confirm(token: h.generator.lastToken!, ip: nil, userAgent: nil)
        _ = try h.service.signUp(email: "eve@example.com", password: Harness.password, acceptLanguage: "de", ip: nil,
                                 userAgent: nil)
        #expect(h.composer.requests.last?.kind == .signupAttempt)
        #expect(h.composer.requests.last?.locale == "fr")
    }

    @Test func setLocaleChangesTheNextMails() throws {
        let h = Harness()
        let issued = try h.confirmedUser("fay@example.com")
        let authenticated = try h.service.authenticate(accessToken: issued.accessToken)
        #expect(throws: AuthError.unsupportedLocale) { try h.service.setLocale(authenticated, locale: "xx") }
        let user = try h.service.setLocale(authenticated, locale: "fr")
        #expect(user.locale == "fr")
        try h.forgotPassword("fay@example.com")
        #expect(h.composer.requests.last?.kind == .resetPassword && h.composer.requests.last?.locale == "fr")
        try h.service.changePassword(authenticated, currentPassword: Harness.password,
                                         newPassword: "another fine passphrase", ip: nil)
        #expect(h.composer.requests.last?.kind == .passwordChanged && h.composer.requests.last?.locale == "fr")
    }
}
