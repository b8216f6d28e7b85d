import AuthCore
import AuthCoreTesting
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// POST /confirmAuth and /resetPassword: redemption through AuthService, cross-site refusals, form parsing.
@Suite struct LandingPagePostTests {
    /// Opens the confirm page and returns the token and the CSRF cookie it set.
    private func openConfirm(_ web: WebHarness, email: String = "ada@example.com") throws -> (String, String) {
        let token = try web.signUp(email)
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/confirmAuth?token=\(token)")))
        return (token, csrf)
    }

    @Test func confirmingSignsTheAccountUpOnce() throws {
        let web = try WebHarness()
        let (token, csrf) = try openConfirm(web)
        let page = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf)
        #expect(page.status == .ok)
        #expect(page.text.contains(#"data-state="done""#))
        #expect(page.text.contains(#"href="myapp://home""#))
        #expect(!page.text.contains(token))
        #expect(page.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true)
        let signIn = web.postJSON("/v1/signin", #"{"email":"ada@example.com","password":"correct horse"}"#)
        #expect(signIn.status == .ok)

        let again = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf)
        #expect(again.status == .conflict)
        #expect(again.text.contains(#"data-state="used""#))
    }

    @Test(arguments: [
        ("null", "same-origin", true),                       // Chrome under Referrer-Policy: no-referrer
        ("https://links.example.com", nil, true),            // Origin alone
        ("https://LINKS.example.com", "same-origin", true),  // host case does not matter
        ("https://old.example.com", "same-origin", true),    // an additional host
        ("null", "cross-site", false),
        ("https://links.example.com", "same-site", false),   // a sibling subdomain
        ("https://evil.example", "same-origin", false),
        ("https://links.example.com:8443", nil, false),
        ("null", nil, false),                                // nothing vouches for it
        (nil, nil, false),
    ] as [(String?, String?, Bool)])
    func crossSiteChecks(origin: String?, fetchSite: String?, accepted: Bool) throws {
        let web = try WebHarness(additionalHosts: ["old.example.com"])
        let (token, csrf) = try openConfirm(web)
        let page = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf,
                                origin: origin, fetchSite: fetchSite)
        #expect(page.text.contains(accepted ? #"data-state="done""# : #"data-state="refused""#))
        #expect(page.status == (accepted ? .ok : .forbidden))
        // A refused POST leaves the token usable.
        if !accepted { #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok) }
    }

    @Test func theCSRFFieldMustMatchTheCookie() throws {
        let web = try WebHarness()
        let (token, csrf) = try openConfirm(web)
        let other = String(repeating: "A", count: 43)
        let cases: [(field: String, cookie: String?)] = [(csrf, nil), (other, csrf), (csrf, other), ("short", "short")]
        for (field, cookie) in cases {
            let page = web.postForm("/confirmAuth", [("token", token), ("csrf", field)], cookie: cookie)
            #expect(page.status == .forbidden)
            #expect(page.text.contains(#"data-state="refused""#))
        }
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(token)"}"#).status == .ok)
    }

    @Test func onlyWellFormedFormsAreRead() throws {
        let web = try WebHarness()
        let (token, csrf) = try openConfirm(web)
        let json = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf,
                                contentType: "application/json")
        #expect(json.status == .unsupportedMediaType)
        let missing = web.postForm("/confirmAuth", [("csrf", csrf)], cookie: csrf)
        #expect(missing.status == .badRequest)
        #expect(missing.text.contains(#"data-state="bad_form""#))
        let twice = web.postForm("/confirmAuth", [("token", token), ("token", token), ("csrf", csrf)], cookie: csrf)
        #expect(twice.status == .badRequest)
        let long = web.postForm("/confirmAuth", [("token", String(repeating: "t", count: 600)), ("csrf", csrf)],
                                cookie: csrf)
        #expect(long.status == .badRequest)
        let charset = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf,
                                   contentType: "Application/X-WWW-Form-URLEncoded; charset=UTF-8")
        #expect(charset.status == .ok)
    }

    @Test func weakPasswordsShowTheFormAgainAndKeepTheLink() throws {
        let web = try WebHarness()
        let (token, csrf) = try requestReset(web)
        let weak = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "short")],
                                cookie: csrf)
        #expect(weak.status == .unprocessableContent)
        #expect(weak.text.contains(#"data-state="ready""#))
        #expect(weak.text.contains(WeakPasswordReason.passwordTooShort.message))
        #expect(weak.text.contains(#"aria-invalid="true""#))
        #expect(weak.text.contains(#"name="token" value="\#(token)""#))
        #expect(weak.text.contains(#"name="csrf" value="\#(csrf)""#))

        let done = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "new pass phrase")],
                                cookie: csrf)
        #expect(done.status == .ok)
        #expect(done.text.contains(#"data-state="done""#))
    }

    @Test func percentEncodingAndPlusAreDecoded() throws {
        let web = try WebHarness()
        let (token, csrf) = try requestReset(web)
        let password = "ünïcode + 100% & more=yes"
        let body = WebHarness.encode([("token", token), ("csrf", csrf), ("password", password)])
        #expect(body.contains("+%2B+") && body.contains("%25") && body.contains("%26"))
        let page = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", password)],
                                cookie: csrf)
        #expect(page.text.contains(#"data-state="done""#))
        let json = #"{"email":"ada@example.com","password":"\#(password)"}"#
        #expect(web.postJSON("/v1/signin", json).status == .ok)
        #expect(web.postJSON("/v1/signin", #"{"email":"ada@example.com","password":"correct horse"}"#).status
            == .unauthorized)
    }

    @Test func aResetLinkIsUsedOnceAndExpires() throws {
        let web = try WebHarness()
        let (token, csrf) = try requestReset(web)
        _ = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "new pass phrase")],
                         cookie: csrf)
        let again = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "other phrase")],
                                 cookie: csrf)
        #expect(again.text.contains(#"data-state="used""#))
        #expect(web.get("/resetPassword?token=\(token)").text.contains(#"data-state="used""#))

        _ = web.postJSON("/v1/password/forgot", #"{"email":"ada@example.com"}"#)
        let late = try web.mailedToken(.resetPassword, to: "ada@example.com")
        web.clock.advance(by: 2 * 3600)
        let expired = web.postForm("/resetPassword", [("token", late), ("csrf", csrf), ("password", "late phrase!")],
                                   cookie: csrf)
        #expect(expired.status == .badRequest)
        #expect(expired.text.contains(#"data-state="expired""#))
    }

    /// A reset must not get around two-step verification: the page asks for the factor and keeps the link until
    /// it is given; a recovery code typed in the same field works.
    @Test func anEnrolledAccountsResetNeedsTheSecondFactor() throws {
        let web = try WebHarness()
        let (token, csrf) = try requestReset(web)
        #expect(web.get("/resetPassword?token=\(token)").text.contains(#"name="mfa_code""#))
        let recoveryCode = "ABCD-EFGH-JKMN-PQRS"
        web.store.state.withLock { state in
            let id = state.users.values.first { $0.email == "ada@example.com" }!.id
            state.users[id]?.hasSecondFactor = true
            let digest = FakeSecondFactorSecrets().digest(recoveryCode: "ABCDEFGHJKMNPQRS", userID: id)
            state.recoveryCodes[id] = [digest: nil]
        }
        // A browser posts the empty field as `mfa_code=`: that is no code, not a broken form.
        let missing = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "new pass phrase"),
                                                      ("mfa_code", "")], cookie: csrf)
        #expect(missing.status == .unprocessableContent)
        #expect(missing.text.contains(AuthError.mfaRequired.message))
        let wrong = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "new pass phrase"),
                                                    ("mfa_code", "123456")], cookie: csrf)
        #expect(wrong.text.contains(AuthError.invalidMFACode.message))
        let done = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "new pass phrase"),
                                                   ("mfa_code", recoveryCode.lowercased())], cookie: csrf)
        #expect(done.status == .ok)
        #expect(done.text.contains(#"data-state="done""#))
    }

    /// Signs up, confirms, asks for a reset and opens the reset page.
    private func requestReset(_ web: WebHarness) throws -> (String, String) {
        let confirm = try web.signUp()
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(confirm)"}"#).status == .ok)
        #expect(web.postJSON("/v1/password/forgot", #"{"email":"ada@example.com"}"#).status == .accepted)
        let token = try web.mailedToken(.resetPassword, to: "ada@example.com")
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/resetPassword?token=\(token)")))
        return (token, csrf)
    }
}
