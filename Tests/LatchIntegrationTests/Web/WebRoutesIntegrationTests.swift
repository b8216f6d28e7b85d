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
            "LATCH_ANDROID_CERT_FINGERPRINTS": "AA:BB",
        ])
        defer { app.stop() }
        let apple = try app.get("/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        #expect(apple.header("Content-Type") == "application/json")
        #expect(apple.text.contains(#""appIDs":["ABCDE12345.com.example.app"]"#))
        let android = try app.get("/.well-known/assetlinks.json")
        #expect(android.status == 200)
        #expect(android.text.contains(#""package_name":"com.example.app""#))
        #expect(android.text.contains(#""sha256_cert_fingerprints":["AA:BB"]"#))
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
}
