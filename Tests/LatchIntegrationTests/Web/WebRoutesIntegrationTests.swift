import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// The web routes as latchd wires them (`LatchApplication`): association files from the environment, the
/// landing pages over a real socket against PostgreSQL, and their own labels in /metrics.
@Suite struct WebRoutesIntegrationTests {
    static let sameOrigin: [(String, String)] = [("Origin", TestApp.linkBase), ("Sec-Fetch-Site", "same-origin")]

    @Test func associationFilesComeFromTheEnvironment() throws {
        let app = try TestApp(environment: [
            "LATCH_APP_IDS": "ABCDE12345.com.example.app",
            "LATCH_ANDROID_PACKAGE": "com.example.app",
            "LATCH_ANDROID_CERT_FINGERPRINTS": "AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB",
        ])
        defer { app.stop() }
        let apple = try app.get("/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        #expect(apple.header("Content-Type") == "application/json")
        #expect(apple.text.contains(#""appIDs":["ABCDE12345.com.example.app"]"#))
        let android = try app.get("/.well-known/assetlinks.json")
        #expect(android.status == 200)
        #expect(android.text.contains(#""package_name":"com.example.app""#))
        #expect(android.text.contains(#""sha256_cert_fingerprints":["AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB"]"#))
    }

    @Test func confirmThroughTheLandingPageAgainstPostgres() throws {
        let app = try TestApp()
        defer { app.stop() }
        let signUp = try app.post("/v1/signup", #"{"email":"web@example.com","password":"correct horse"}"#)
        #expect(signUp.status == 202)
        let token = try #require(try app.latestToken(to: "web@example.com", kind: .confirmEmail))

        let page = try app.get("/confirmAuth?token=\(token)")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-state="ready""#))
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        let cookie = try #require(page.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(cookie.hasPrefix("__Host-latch_csrf="))
        let csrf = String(cookie.dropFirst("__Host-latch_csrf=".count))
        // The GET spent nothing: a second one shows the same state.
        #expect(try app.get("/confirmAuth?token=\(token)").text.contains(#"data-state="ready""#))

        let form = "token=\(token)&csrf=\(csrf)"
        let headers = Self.sameOrigin + [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)]
        let client = try app.client()
        defer { client.close() }
        let done = try client.send("POST", "/confirmAuth", headers: headers, body: Array(form.utf8))
        #expect(done.status == 200)
        #expect(done.text.contains(#"data-state="done""#))
        let sessions: Int = try app.pool.query("SELECT count(*) FROM sessions").scalar(Int.self) ?? -1
        #expect(sessions == 0, "confirming in a browser opens no session nobody could use")
        let signIn = try app.post("/v1/signin", #"{"email":"web@example.com","password":"correct horse"}"#)
        #expect(signIn.status == 200)
        let used = try app.get("/confirmAuth?token=\(token)")
        #expect(used.status == 409)
        #expect(used.text.contains(#"data-state="used""#))

        let metrics = try app.metrics().text
        #expect(metrics.contains(#"route="/confirmAuth""#))
    }

    @Test func aChangeOfAddressThroughTheLandingPageShowsOnlyMaskedAddresses() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm("anna@example.com", "correct horse")
        let asked = try app.post("/v1/email/change", fields: ["new_email": "zed@example.org", "password": "correct horse"],
                                 headers: session.bearer)
        #expect(asked.status == 202)
        let token = try #require(try app.latestToken(to: "zed@example.org", kind: .confirmEmailChange))

        let page = try app.get("/confirmEmailChange?token=\(token)")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-flow="email_change" data-state="ready""#))
        #expect(page.text.contains("a•••@example.com") && page.text.contains("z•••@example.org"))
        #expect(!page.text.contains("anna@") && !page.text.contains("zed@"), "whoever holds the link learns no address")
        let cookie = try #require(page.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let csrf = String(cookie.dropFirst("__Host-latch_csrf=".count))

        let headers = Self.sameOrigin + [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)]
        let client = try app.client()
        defer { client.close() }
        let forged = try client.send("POST", "/confirmEmailChange", headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie), ("Origin", "https://evil.example"),
        ], body: Array("token=\(token)&csrf=\(csrf)".utf8))
        #expect(forged.status == 403)
        let done = try client.send("POST", "/confirmEmailChange", headers: headers,
                                   body: Array("token=\(token)&csrf=\(csrf)".utf8))
        #expect(done.status == 200)
        #expect(done.text.contains(#"data-state="done""#))
        #expect(try app.signIn("zed@example.org", "correct horse").status == 200)
        let used = try app.get("/confirmEmailChange?token=\(token)")
        #expect(used.status == 409 && used.text.contains(#"data-state="used""#))
    }

    /// Mail scanners such as Outlook Safe Links send HEAD before anyone clicks: it must answer as GET does, headers
    /// and Content-Length included, without a body, and spend nothing.
    @Test func headOfEachLandingPageAnswersLikeGetWithoutSpendingTheToken() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.post("/v1/signup", #"{"email":"scan@example.com","password":"correct horse"}"#).status == 202)
        _ = try app.signUpAndConfirm("reset@example.com", "correct horse")
        #expect(try app.post("/v1/password/forgot", #"{"email":"reset@example.com"}"#).status == 202)
        let confirmToken = try #require(try app.latestToken(to: "scan@example.com", kind: .confirmEmail))
        let resetToken = try app.resetToken("reset@example.com")

        let client = try app.client()
        defer { client.close() }
        for target in ["/confirmAuth?token=\(confirmToken)", "/resetPassword?token=\(resetToken)", "/confirmAuth"] {
            let head = try client.send("HEAD", target)
            let get = try client.send("GET", target)
            #expect(head.status == get.status, "\(target)")
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
            // The same headers, but for the date and the fresh CSRF value a page without a cookie sets.
            let names = { (response: HTTPTestClient.Response) in response.headers.map { $0.name.lowercased() }.sorted() }
            #expect(names(head) == names(get), "\(target)")
            for (name, value) in get.headers where !["date", "set-cookie"].contains(name.lowercased()) {
                #expect(head.header(name) == value, "\(target): \(name)")
            }
        }
        // Nothing was spent or counted: both tokens still redeem, and no token was marked used by the scans.
        #expect(try app.count("SELECT count(*)::int8 FROM auth_tokens WHERE used_at IS NOT NULL") == 1,
                "only the token reset@ confirmed its address with")
        #expect(try app.confirm(confirmToken).status == 200)
        #expect(try app.resetPassword(resetToken, "another fine passphrase").status == 200)
    }
}
