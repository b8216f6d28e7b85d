import AuthCore
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// The reset page without a link: the address and the code from the mail typed in, for a mail read on another
/// device or a link a scanner spoilt.
@Suite struct LandingPageCodeTests {
    /// Signs up, confirms, asks for a reset; returns the code of the reset mail.
    private func resetCode(_ web: WebHarness) throws -> String {
        let token = try web.signUp()
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok)
        #expect(web.postJSON("/v1/password/forgot", #"{"email":"ada@example.com"}"#).status == .accepted)
        return try #require(web.codes.lastCode)
    }

    @Test func theResetPageWithoutALinkAsksForTheAddressTheCodeAndAPassword() throws {
        let web = try WebHarness()
        let page = web.get("/resetPassword")
        #expect(page.status == .ok)
        #expect(page.text.contains(#"data-state="ready""#))
        for field in [#"name="email""#, #"name="code""#, #"autocomplete="one-time-code""#, #"name="password""#] {
            #expect(page.text.contains(field), "\(field)")
        }
        #expect(!page.text.contains(#"name="token""#) && !page.text.contains("open-in-app"))
        #expect(WebHarness.csrfCookie(of: page) != nil)
        // The confirm page has no such form: a confirm link without its token stays invalid.
        #expect(web.get("/confirmAuth").text.contains(#"data-state="invalid""#))
    }

    @Test func aTypedCodeResetsThePasswordOnce() throws {
        let web = try WebHarness()
        let code = try resetCode(web)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/resetPassword")))
        let fields = [("email", "ada@example.com"), ("code", code), ("password", "a new horse 42"), ("csrf", csrf)]
        let done = web.postForm("/resetPassword", fields, cookie: csrf)
        #expect(done.status == .ok && done.text.contains(#"data-state="done""#), "\(done.text)")
        #expect(web.postJSON("/v1/signin", #"{"email":"ada@example.com","password":"a new horse 42"}"#).status == .ok)
        let again = web.postForm("/resetPassword", fields, cookie: csrf)
        #expect(again.text.contains(#"data-state="ready""#) && again.text.contains("This code is not valid"))
    }

    @Test func aWrongCodeOrAWeakPasswordShowsTheFormAgainAsTyped() throws {
        let web = try WebHarness()
        let code = try resetCode(web)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/resetPassword")))
        let wrong = web.postForm("/resetPassword", [
            ("email", "ada@example.com"), ("code", "99999999"), ("password", "a new horse 42"), ("csrf", csrf),
        ], cookie: csrf)
        #expect(wrong.text.contains("This code is not valid"))
        #expect(wrong.text.contains(#"value="ada@example.com""#) && wrong.text.contains(#"value="99999999""#))
        let weak = web.postForm("/resetPassword", [
            ("email", "ada@example.com"), ("code", code), ("password", "short"), ("csrf", csrf),
        ], cookie: csrf)
        #expect(weak.status == .unprocessableContent && weak.text.contains(#"aria-invalid="true""#))
        #expect(web.postForm("/resetPassword", [
            ("email", "ada@example.com"), ("code", code), ("password", "a new horse 42"), ("csrf", csrf),
        ], cookie: csrf).text.contains(#"data-state="done""#), "the weak password spent nothing")
    }

    @Test func theCodeFormObeysTheCrossSiteChecksToo() throws {
        let web = try WebHarness()
        let code = try resetCode(web)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/resetPassword")))
        let forged = web.postForm("/resetPassword", [
            ("email", "ada@example.com"), ("code", code), ("password", "a new horse 42"), ("csrf", csrf),
        ], cookie: csrf, origin: "https://evil.example", fetchSite: "cross-site")
        #expect(forged.status == .forbidden)
        #expect(web.postJSON("/v1/password/reset",
                             #"{"email":"ada@example.com","code":"\#(code)","password":"a new horse 42"}"#).status == .ok)
    }
}
