import AuthCore
import Foundation
import LatchTestSupport
import TestKit
import Testing

/// GET /signIn as latchd serves it, against PostgreSQL: the page behind a sign-in mail's link reads the record and
/// never spends it (mail scanners open links first), shows its state, and /signIn takes no POST. The record is asked
/// for through `AuthService` itself, as the API route for it does, and its link read from the outbox as the app
/// reads it.
@Suite struct SignInLandingPageIntegrationTests {
    static let sameOriginForm: [(String, String)] = [
        ("Origin", TestApp.linkBase), ("Sec-Fetch-Site", "same-origin"),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ]

    /// Asks for a sign-in mail to `email` as an app instance does; returns the mailed token and that instance's
    /// secret, which redeeming it needs.
    static func requestSignIn(_ app: TestApp, _ email: String) throws -> (token: String, secret: String) {
        let service = app.application.service
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let binding = service.ports.tokenGenerator.digest(bytes: secret)
        _ = try service.requestEmailSignIn(email: email, binding: base64URL(binding), ip: "198.51.100.4",
                                           userAgent: "SignInLandingPageIntegrationTests")
        let token = try #require(try app.latestToken(to: email, kind: .signIn))
        return (token, base64URL(secret))
    }

    static func base64URL(_ bytes: Data) -> String {
        bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The record's row, read without changing it.
    static func record(_ app: TestApp, _ token: String) throws -> TokenRecord? {
        let service = app.application.service
        return try service.ports.store.lookupToken(hash: service.ports.tokenGenerator.digest(token))
    }

    @Test func gettingThePageTwiceLeavesTheRecordUnusedForTheAppThatAsked() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("link@example.com", "correct horse").status == 202)
        let (token, secret) = try Self.requestSignIn(app, "link@example.com")

        let page = try app.get("/signIn?token=\(token)")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-flow="sign_in" data-state="ready""#))
        #expect(page.text.contains("Open the app on the device where you asked to sign in"))
        #expect(page.text.contains(#"id="open-in-app" href="myapp://signIn?token=\#(token)""#))
        #expect(page.text.components(separatedBy: token).count - 1 == 1, "the token is only in the href")
        #expect(!page.text.contains("<form") && page.header("Set-Cookie") == nil)
        #expect(page.header("Cache-Control") == "no-store" && page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        let again = try app.get("/signIn?token=\(token)")
        #expect(again.status == 200 && again.text == page.text)

        let client = try app.client()
        defer { client.close() }
        let head = try client.send("HEAD", "/signIn?token=\(token)")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("Content-Length") == String(page.body.count))
        let post = try client.send("POST", "/signIn?token=\(token)", headers: Self.sameOriginForm,
                                   body: Array("token=\(token)".utf8))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")

        let unused = try #require(try Self.record(app, token))
        #expect(unused.purpose == .signIn && unused.usedAt == nil)
        #expect(try app.count("SELECT count(*)::int8 FROM auth_tokens WHERE purpose = 'sign_in' AND used_at IS NULL")
            == 1)
        #expect(try app.count("SELECT count(*)::int8 FROM sessions") == 0, "the page signed nobody in")

        // The app that asked signs in with it; then the page says the link was used.
        let issued = try app.application.service.completeEmailSignIn(token: token, bindingSecret: secret,
                                                                     ip: nil, userAgent: nil)
        #expect(issued.session?.user.email == "link@example.com")
        #expect(try Self.record(app, token)?.usedAt != nil)
        let used = try app.get("/signIn?token=\(token)")
        #expect(used.status == 409)
        #expect(used.text.contains(#"data-state="used""#) && !used.text.contains(token))
        #expect(try app.metrics().text.contains(#"route="/signIn""#))
    }

    @Test func anExpiredRecordShowsTheExpiredState() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("late@example.com", "correct horse").status == 202)
        let (token, _) = try Self.requestSignIn(app, "late@example.com")
        try app.sql("UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'sign_in'")
        let page = try app.get("/signIn?token=\(token)")
        #expect(page.status == 400)
        #expect(page.text.contains(#"data-state="expired""#))
        #expect(page.text.contains("Ask for a new sign-in email"))
        #expect(!page.text.contains(token))
        #expect(try #require(try Self.record(app, token)).usedAt == nil)
    }

    /// Security rule 8: the query is never logged, also for a method the path does not take.
    @Test func theTokenIsNeverLogged() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("quiet@example.com", "correct horse").status == 202)
        let (token, _) = try Self.requestSignIn(app, "quiet@example.com")
        let serving = try LoggedApplication(database: app.database)
        defer { serving.stop() }
        let client = try HTTPTestClient(port: serving.port)
        defer { client.close() }
        #expect(try client.send("GET", "/signIn?token=\(token)").status == 200)
        #expect(try client.send("HEAD", "/signIn?token=\(token)").status == 200)
        #expect(try client.send("POST", "/signIn?token=\(token)", headers: Self.sameOriginForm,
                                body: Array("token=\(token)".utf8)).status == 405)
        // Each request's line is written once its answer is sent: wait for all three, then read them.
        let logged = eventually(within: .seconds(10)) {
            serving.log.components(separatedBy: #""path":"/signIn""#).count - 1 == 3
        }
        #expect(logged, "the three requests were logged")
        #expect(!serving.log.contains(token))
    }
}
