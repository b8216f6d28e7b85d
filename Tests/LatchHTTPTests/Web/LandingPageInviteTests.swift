import AuthCore
import AuthCoreTesting
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// `GET`/`POST /acceptInvite`: the page never redeems on GET (mail scanners), its form sets the first password and
/// confirms the address without opening a session, and every link state says what to do next.
@Suite struct LandingPageInviteTests {
    private func invite(_ web: WebHarness, _ email: String = "ivy@example.com", locale: String? = nil) throws -> String {
        _ = try AdminOperations(service: web.auth, actor: "opal").invite(email: email, locale: locale)
        return try web.mailedToken(.acceptInvite, to: email)
    }

    @Test func getShowsThePasswordFormAndSpendsNothing() throws {
        let web = try WebHarness()
        let token = try invite(web)
        for _ in 0..<3 {
            let page = web.get("/acceptInvite?token=\(token)")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"data-flow="invite" data-state="ready""#))
            #expect(page.text.contains(#"<form method="post" action="acceptInvite">"#))
            #expect(page.text.contains(#"autocomplete="new-password""#))
            #expect(!page.text.contains("mfa"), "an invited account has no second factor to ask for")
            #expect(page.text.contains("myapp://acceptInvite?token=\(token)"))
            #expect(page.text.contains("Accept your invitation") && page.text.contains("Set password"))
        }
        #expect(web.store.snapshot.tokens.values.allSatisfy { $0.record.usedAt == nil })
        #expect(web.store.snapshot.users.values.allSatisfy { !$0.hasPassword && !$0.isConfirmed })
    }

    @Test func theFormSetsThePasswordConfirmsAndOpensNoSession() throws {
        let web = try WebHarness()
        let token = try invite(web)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/acceptInvite?token=\(token)")))
        let weak = web.postForm("/acceptInvite", [("token", token), ("csrf", csrf), ("password", "short")], cookie: csrf)
        #expect(weak.status == .unprocessableContent && weak.text.contains(#"data-state="ready""#))
        #expect(weak.text.contains(#"role="alert""#), "the form again, with the reason")

        let done = web.postForm("/acceptInvite", [("token", token), ("csrf", csrf), ("password", "first battery staple")],
                                cookie: csrf)
        #expect(done.status == .ok && done.text.contains(#"data-state="done""#), "\(done.text)")
        #expect(!done.text.contains(token))
        #expect(web.store.snapshot.sessions.isEmpty)
        #expect(web.store.snapshot.users.values.allSatisfy { $0.isConfirmed && $0.hasPassword })
        let signIn = web.postJSON("/v1/signin", #"{"email":"ivy@example.com","password":"first battery staple"}"#)
        #expect(signIn.status == .ok)

        let used = web.get("/acceptInvite?token=\(token)")
        #expect(used.status == .conflict && used.text.contains(#"data-state="used""#))
        #expect(used.text.contains("This invitation was accepted already"))
    }

    @Test func aCrossSitePostRedeemsNothing() throws {
        let web = try WebHarness()
        let token = try invite(web)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/acceptInvite?token=\(token)")))
        let forged = web.postForm("/acceptInvite", [("token", token), ("csrf", csrf), ("password", "first battery staple")],
                                  cookie: csrf, origin: "https://evil.example", fetchSite: "cross-site")
        #expect(forged.status == .forbidden)
        let noCookie = web.postForm("/acceptInvite", [("token", token), ("csrf", csrf), ("password", "first battery staple")],
                                    cookie: nil)
        #expect(noCookie.status == .forbidden)
        #expect(web.store.snapshot.users.values.allSatisfy { !$0.hasPassword })
    }

    @Test func expiredAndInvalidLinksSayWhatToDo() throws {
        let web = try WebHarness()
        let token = try invite(web)
        #expect(web.get("/acceptInvite").status == .badRequest)
        #expect(web.get("/acceptInvite?token=\(token)&token=\(token)").status == .badRequest)
        web.clock.advance(by: 7 * 24 * 3600)
        let expired = web.get("/acceptInvite?token=\(token)")
        #expect(expired.status == .badRequest && expired.text.contains(#"data-state="expired""#))
        #expect(expired.text.contains("Invitations work for a limited time"))
    }

    @Test(arguments: [("de", "Nehmen Sie Ihre Einladung an"), ("fr", "Acceptez votre invitation")])
    func thePageSpeaksTheInvitedAccountsLanguage(locale: String, heading: String) throws {
        let web = try WebHarness()
        let token = try invite(web, locale: locale)
        let page = web.get("/acceptInvite?token=\(token)")
        #expect(page.text.contains(#"<html lang="\#(locale)">"#) && page.text.contains(heading))
    }
}
