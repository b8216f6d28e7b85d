import AuthCore
import Foundation
import HTMLEscaping
import HTTPServer
@testable import LatchHTTP
import Testing

/// GET /confirmAuth and /resetPassword: states, headers, the token's only two places, and no redemption.
@Suite struct LandingPageGetTests {
    @Test func confirmPageShowsTheButtonWithStrictHeaders() throws {
        let web = try WebHarness()
        let token = try web.signUp()
        let page = web.get("/confirmAuth?token=\(token)")
        #expect(page.status == .ok)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.text.contains(#"data-state="ready""#))
        #expect(page.text.contains(#"<html lang="en">"#))
        #expect(page.text.contains(#"<form method="post" action="confirmAuth">"#))
        #expect(page.text.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
        #expect(page.text.contains(#"href="myapp://confirmAuth?token=\#(token)""#))
        // Only the hidden field and the Open-in-app link hold it.
        #expect(page.text.components(separatedBy: token).count - 1 == 2)
        #expect(page.headers["Referrer-Policy"] == "no-referrer")
        #expect(page.headers["X-Frame-Options"] == "DENY")
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        let cookie = try #require(page.headers["Set-Cookie"])
        #expect(cookie.hasPrefix("__Host-latch_csrf="))
        #expect(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict; Secure"))
        let csrf = try #require(WebHarness.csrfCookie(of: page))
        #expect(page.text.contains(#"<input type="hidden" name="csrf" value="\#(csrf)">"#))
    }

    @Test func policyAllowsExactlyTheInlineStylesheet() throws {
        let web = try WebHarness()
        let page = web.get("/confirmAuth?token=\(try web.signUp())")
        let policy = try #require(page.headers["Content-Security-Policy"])
        let hash = web.generator.digest(LandingPageStyle.css).base64EncodedString()
        #expect(policy == "default-src 'none'; style-src 'sha256-\(hash)'; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'")
        #expect(page.text.contains("<style>\(LandingPageStyle.css)</style>"))
        #expect(!page.text.contains("<script"))
        #expect(!page.text.contains("http://") && !page.text.contains("https://"))
    }

    @Test func getNeverSpendsTheToken() throws {
        let web = try WebHarness()
        let token = try web.signUp()
        for _ in 0..<3 { #expect(web.get("/confirmAuth?token=\(token)").status == .ok) }
        #expect(web.send(.head, "/confirmAuth?token=\(token)").status == .ok)
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok)
    }

    @Test func usedExpiredAndInvalidTokensShowTheirState() throws {
        let web = try WebHarness()
        let used = try web.signUp("used@example.com")
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(used)"}"#).status == .ok)
        let usedPage = web.get("/confirmAuth?token=\(used)")
        #expect(usedPage.status == .conflict)
        #expect(usedPage.text.contains(#"data-state="used""#))
        #expect(!usedPage.text.contains(used))
        #expect(usedPage.headers["Set-Cookie"] == nil)

        let expired = try web.signUp("late@example.com")
        web.clock.advance(by: 25 * 3600)
        let expiredPage = web.get("/confirmAuth?token=\(expired)")
        #expect(expiredPage.status == .badRequest)
        #expect(expiredPage.text.contains(#"data-state="expired""#))
        #expect(expiredPage.text.contains("has expired"))

        for target in ["/confirmAuth?token=nope", "/confirmAuth", "/confirmAuth?token=", "/resetPassword?token=x&token=y"] {
            let page = web.get(target)
            #expect(page.status == .badRequest, "\(target)")
            #expect(page.text.contains(#"data-state="invalid""#), "\(target)")
        }
    }

    @Test func aTokenOnlyWorksOnItsOwnPage() throws {
        let web = try WebHarness()
        let confirm = try web.signUp()
        let page = web.get("/resetPassword?token=\(confirm)")
        #expect(page.text.contains(#"data-state="invalid""#))
    }

    @Test func resetPageHasAnAccessibleNewPasswordField() throws {
        let web = try WebHarness()
        _ = web.postJSON("/v1/password/forgot", #"{"email":"\#(try signedUp(web))"}"#)
        let token = try web.mailedToken(.resetPassword, to: "ada@example.com")
        let page = web.get("/resetPassword?token=\(token)")
        #expect(page.status == .ok)
        #expect(page.text.contains(#"<label for="password">New password</label>"#))
        #expect(page.text.contains(#"autocomplete="new-password" required minlength="8" maxlength="128""#))
        #expect(page.text.contains(#"href="myapp://resetPassword?token=\#(token)""#))
        #expect(page.text.contains(#"action="resetPassword""#))
    }

    @Test func disabledAccountsSaySo() throws {
        let web = try WebHarness()
        let token = try web.signUp()
        let user = try #require(try web.store.findUser(email: EmailAddress("ada@example.com")))
        try web.store.setDisabled(userID: user.id, at: web.clock.now())
        let page = web.get("/confirmAuth?token=\(token)")
        #expect(page.status == .forbidden)
        #expect(page.text.contains(#"data-state="disabled""#))
    }

    @Test func anExistingCookieIsReusedSoTwoTabsBothWork() throws {
        let web = try WebHarness()
        let first = web.get("/confirmAuth?token=\(try web.signUp())")
        let csrf = try #require(WebHarness.csrfCookie(of: first))
        let second = web.get("/confirmAuth?token=\(try web.signUp("bob@example.com"))", cookie: csrf)
        #expect(second.headers["Set-Cookie"] == nil)
        #expect(second.text.contains(#"name="csrf" value="\#(csrf)""#))
    }

    @Test func storeFailuresShowAGenericPageAndAreReported() throws {
        let web = try WebHarness()
        let token = try web.signUp()
        web.store.setFailing(true)
        let page = web.get("/confirmAuth?token=\(token)")
        #expect(page.status == .serviceUnavailable)
        #expect(page.text.contains(#"data-state="unavailable""#))
        #expect(web.reported.value == ["/confirmAuth"])
    }

    @Test func interpolatedValuesAreEscaped() throws {
        let web = try WebHarness(productName: #"<b>"Acme" & 'Co'</b>"#)
        let page = web.get("/confirmAuth?token=%3Cscript%3E")
        #expect(page.text.contains("&lt;b&gt;&quot;Acme&quot; &amp; &#39;Co&#39;&lt;/b&gt;"))
        #expect(!page.text.contains("<b>"))
        #expect(HTMLText.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func plainHTTPLinkBasesGetAnUnprefixedCookieWithoutSecure() throws {
        let web = try WebHarness(linkBase: "http://127.0.0.1:8080")
        let page = web.get("/confirmAuth?token=\(try web.signUp())")
        #expect(page.headers["Set-Cookie"]?.hasPrefix("latch_csrf=") == true)
        #expect(page.headers["Set-Cookie"]?.contains("Secure") == false)
        #expect(page.headers["Set-Cookie"]?.contains("SameSite=Strict") == true)
    }

    private func signedUp(_ web: WebHarness) throws -> String {
        let token = try web.signUp()
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok)
        return "ada@example.com"
    }
}
