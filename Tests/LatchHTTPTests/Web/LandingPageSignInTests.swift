import AuthCore
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// GET /signIn: the page behind the sign-in mail's link. The record is bound to the app instance that asked, so the
/// page never redeems it, has no form and sets no cookie, and /signIn takes no POST; it sends the reader to the app
/// on the device that asked, or to the code from the mail.
@Suite struct LandingPageSignInTests {
    @Test func aUsableLinkSendsTheReaderToTheAppOnTheAskingDevice() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (token, _) = try web.requestSignIn()
        let page = web.get("/signIn?token=\(token)")
        #expect(page.status == .ok)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.text.contains(#"data-flow="sign_in" data-state="ready""#))
        #expect(page.text.contains("<h1>Open the app on the device where you asked to sign in</h1>"))
        #expect(page.text.contains("This link works only on the device where you asked to sign in to Acme."))
        #expect(page.text.contains("type the code from the email in the Acme app on that device."))
        #expect(page.text.contains(#"<a class="app primary" id="open-in-app" href="myapp://signIn?token=\#(token)">"#
            + "Open in the Acme app</a>"))
        // Nothing to submit: no form, no hidden token, no CSRF value or cookie.
        #expect(!page.text.contains("<form") && !page.text.contains("<input") && !page.text.contains("<button"))
        #expect(!page.text.contains("csrf"))
        #expect(page.headers["Set-Cookie"] == nil)
        // The "Open in app" link is the token's only place on the page.
        #expect(page.text.components(separatedBy: token).count - 1 == 1)
    }

    @Test func theHeadersAreTheOtherLandingPages() throws {
        let web = try WebHarness()
        let confirm = web.get("/confirmAuth?token=\(try web.signUp())")
        let page = web.get("/signIn?token=\(try web.requestSignIn().token)")
        let names = ["Content-Security-Policy", "Referrer-Policy", "X-Frame-Options", "Cache-Control",
                     "X-Content-Type-Options", "X-Robots-Tag", "Cross-Origin-Opener-Policy", "Content-Type"]
        for name in names {
            #expect(page.headers[name] != nil && page.headers[name] == confirm.headers[name], "\(name)")
        }
        #expect(page.headers["Cache-Control"] == "no-store" && page.headers["Referrer-Policy"] == "no-referrer")
        #expect(page.text.contains("<style>\(LandingPageStyle.css)</style>") && !page.text.contains("<script"))
    }

    @Test func getAndHeadNeverSpendTheRecord() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (token, secret) = try web.requestSignIn()
        let get = web.get("/signIn?token=\(token)")
        for _ in 0..<3 { #expect(web.get("/signIn?token=\(token)").text == get.text) }
        let head = web.send(.head, "/signIn?token=\(token)")
        #expect(head.status == get.status && head.body.count == get.body.count)
        #expect(head.headers.map(\.name) == get.headers.map(\.name))
        let record = try #require(try web.store.lookupToken(hash: web.generator.digest(token)))
        #expect(record.purpose == .signIn && record.usedAt == nil)
        // The app that asked still signs in with it.
        let issued = try web.auth.completeEmailSignIn(token: token, bindingSecret: secret, ip: nil, userAgent: nil)
        #expect(issued.session?.user.email == "ada@example.com")
    }

    @Test func thereIsNoPostAndARefusedPostSpendsNothing() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (token, secret) = try web.requestSignIn()
        let csrf = String(repeating: "A", count: 43)
        for target in ["/signIn", "/signIn?token=\(token)"] {
            let post = web.postForm(target, [("token", token), ("csrf", csrf)], cookie: csrf)
            // What the router answers any path with no route for the method: 405, naming what it takes.
            #expect(post.status == .methodNotAllowed, "\(target)")
            #expect(post.headers["Allow"] == "GET, HEAD", "\(target)")
            #expect(post.text.contains(#""code":"method_not_allowed""#), "\(target)")
            #expect(!post.text.contains(token) && post.headers["Set-Cookie"] == nil, "\(target)")
        }
        #expect(web.router.routes.filter { $0.path == "/signIn" }.map(\.method) == [.get])
        #expect(try web.store.lookupToken(hash: web.generator.digest(token))?.usedAt == nil)
        _ = try web.auth.completeEmailSignIn(token: token, bindingSecret: secret, ip: nil, userAgent: nil)
    }

    @Test func usedExpiredAndReplacedLinksSaySoAndAskForANewMail() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (used, secret) = try web.requestSignIn()
        _ = try web.auth.completeEmailSignIn(token: used, bindingSecret: secret, ip: nil, userAgent: nil)
        let usedPage = web.get("/signIn?token=\(used)")
        #expect(usedPage.status == .conflict)
        #expect(usedPage.text.contains(#"data-state="used""#))
        #expect(usedPage.text.contains("ask for a new sign-in email in the Acme app"))
        #expect(usedPage.text.contains(#"href="myapp://home""#))

        _ = try web.signUp("bob@example.com")
        let (older, _) = try web.requestSignIn("bob@example.com")
        web.clock.advance(by: 61)
        let (newer, _) = try web.requestSignIn("bob@example.com")
        #expect(newer != older)
        let replaced = web.get("/signIn?token=\(older)")
        #expect(replaced.status == .conflict)
        #expect(replaced.text.contains(#"data-state="superseded""#))
        #expect(replaced.text.contains("A newer sign-in email"))

        web.clock.advance(by: 16 * 60)
        let expired = web.get("/signIn?token=\(newer)")
        #expect(expired.status == .badRequest)
        #expect(expired.text.contains(#"data-state="expired""#))
        #expect(expired.text.contains("Ask for a new sign-in email in the Acme app."))

        for (page, token) in [(usedPage, used), (replaced, older), (expired, newer)] {
            #expect(!page.text.contains(token) && !page.text.contains("<form") && page.headers["Set-Cookie"] == nil)
        }
    }

    @Test func disabledAccountsAndUnknownLinksShowTheirState() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (token, _) = try web.requestSignIn()
        let user = try #require(try web.store.findUser(email: EmailAddress("ada@example.com")))
        try web.store.setDisabled(userID: user.id, at: web.clock.now())
        let disabled = web.get("/signIn?token=\(token)")
        #expect(disabled.status == .forbidden && disabled.text.contains(#"data-state="disabled""#))
        #expect(!disabled.text.contains(token))

        let unknown = String(repeating: "Q", count: 43)
        for target in ["/signIn?token=\(unknown)", "/signIn?token=nope", "/signIn", "/signIn?token=",
                       "/signIn?token=\(unknown)&token=\(unknown)"] {
            let page = web.get(target)
            #expect(page.status == .badRequest, "\(target)")
            #expect(page.text.contains(#"data-state="invalid""#), "\(target)")
            #expect(page.text.contains("ask for a new sign-in email in the Acme app"), "\(target)")
        }
    }

    @Test func aSignInTokenOnlyWorksOnItsOwnPage() throws {
        let web = try WebHarness()
        let confirm = try web.signUp()
        let (signIn, _) = try web.requestSignIn()
        #expect(web.get("/signIn?token=\(confirm)").text.contains(#"data-state="invalid""#))
        for path in ["/confirmAuth", "/resetPassword", "/confirmEmailChange"] {
            #expect(web.get("\(path)?token=\(signIn)").text.contains(#"data-state="invalid""#), "\(path)")
        }
        #expect(try web.store.lookupToken(hash: web.generator.digest(signIn))?.usedAt == nil)
    }

    @Test func storeFailuresShowAGenericPageAndAreReported() throws {
        let web = try WebHarness()
        _ = try web.signUp()
        let (token, _) = try web.requestSignIn()
        web.store.setFailing(true)
        let page = web.get("/signIn?token=\(token)")
        #expect(page.status == .serviceUnavailable)
        #expect(page.text.contains(#"data-state="unavailable""#) && !page.text.contains(token))
        #expect(web.reported.value == ["/signIn"])
    }
}
