import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rules 6 and 7: SQL metacharacters, NULs, huge values, wrong media types and oversized bodies get a
/// 4xx (never a 5xx), the schema survives, and the server keeps answering.
@Suite struct HostileInputTests {
    static let hostileValues = [
        "' OR 1=1 --", "\"; DROP TABLE users; --", "a'); DELETE FROM sessions; --@example.test",
        "x\u{0}y", "\u{0}", String(repeating: "A", count: 10_000), String(repeating: "é", count: 10_000),
        "$1", "%s%s%n", "\\x00'", "🦆' UNION SELECT password_hash FROM users --",
    ]

    /// Every JSON endpoint with every field it reads.
    static let endpoints: [(path: String, fields: [String])] = [
        ("/v1/signup", ["email", "password"]), ("/v1/signin", ["email", "password"]),
        ("/v1/confirm", ["token"]), ("/v1/confirm/resend", ["email"]), ("/v1/token/refresh", ["refresh_token"]),
        ("/v1/password/forgot", ["email"]), ("/v1/password/reset", ["token", "password"]),
        ("/v1/signout", ["scope"]),
    ]

    static let valid = ["email": "victim@example.test", "password": "victim passphrase", "token": "", "scope": "local"]

    static func unlimited() -> [String: String] {
        let names = ["SIGNIN", "SIGNUP", "FORGOT", "RESEND"].flatMap { ["LATCH_RATE_\($0)_IP", "LATCH_RATE_\($0)_EMAIL"] }
        var environment = Dictionary(uniqueKeysWithValues: names.map { ($0, "100000/1d") })
        // Hostile passwords are wrong passwords: keep the victim from being locked out mid-test.
        environment["LATCH_LOCKOUT_THRESHOLD"] = "1000"
        return environment
    }

    @Test func hostileValuesInEveryFieldOfEveryEndpointNeverCauseA5xx() throws {
        let app = try TestApp(environment: Self.unlimited())
        defer { app.stop() }
        let session = try app.signUpAndConfirm("victim@example.test", "victim passphrase")
        var failures: [String] = []
        for (path, fields) in Self.endpoints {
            for field in fields {
                for value in Self.hostileValues {
                    var body = Self.valid.filter { fields.contains($0.key) }
                    body[field] = value
                    // A fresh connection each: an error answer may close the connection, and must not mask the next.
                    let response = try app.post(path, fields: body, headers: session.bearer)
                    // A hostile *password* can be a fine password (sign-up answers 202); nothing may be a 5xx, and
                    // the answer must not echo the value.
                    if response.status >= 500 || response.status < 200 {
                        failures.append("\(path) \(field)=\(value.prefix(20)): \(response.status) \(response.text)")
                    }
                    if value.count > 3, response.text.contains(value) {
                        failures.append("\(path) echoes \(field)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(try app.get("/healthz").status == 200)
        #expect(try app.count("SELECT count(*)::int8 FROM users WHERE email = 'victim@example.test'") == 1)
        #expect(try app.signIn("victim@example.test", "victim passphrase").status == 200, "still works")
    }

    @Test func sqlMetacharactersAreRefusedWithTheRightCodes() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = try app.signUp("' OR 1=1 --", "some passphrase")
        #expect(email.status == 422)
        #expect(ErrorJSON.code(email) == "invalid_email")
        let signIn = try app.signIn("' OR 1=1 --@example.test", "' OR 1=1 --")
        #expect(signIn.status == 401 || signIn.status == 422, "\(signIn.status)")
        let token = try app.confirm("' OR 1=1 --")
        #expect(token.status == 400)
        #expect(ErrorJSON.code(token) == "invalid_token")
        let nul = try app.signIn("nul@example.test", "pass\u{0}word")
        #expect(nul.status == 422)
        #expect(ErrorJSON.code(nul) == "invalid_request")
        let long = try app.post("/v1/confirm", fields: ["token": String(repeating: "A", count: 10_000)])
        #expect(long.status == 422)
        #expect(ErrorJSON.code(long) == "invalid_request")
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 0)
    }

    @Test func hostileBearerHeadersAndQueriesAreUnauthorizedOrHarmless() throws {
        let app = try TestApp()
        defer { app.stop() }
        for value in ["' OR 1=1 --", "\"; DROP TABLE sessions; --", String(repeating: "A", count: 10_000)] {
            let me = try app.get("/v1/me", headers: [("Authorization", "Bearer \(value)")])
            #expect(me.status == 401 || me.status == 431 || me.status == 400, "\(me.status)")
            let signOut = try app.post("/v1/signout", "{}", headers: [("Authorization", "Bearer \(value)")])
            #expect((400..<500).contains(signOut.status), "\(signOut.status)")
        }
        let query = "%27%20OR%201%3D1%20--"
        for path in ["/confirmAuth?token=\(query)", "/resetPassword?token=\(query)"] {
            let page = try app.get(path)
            #expect(page.status < 500, "\(path): \(page.status)")
        }
        #expect(try app.get("/healthz").status == 200)
    }

    @Test func bodyLimitsMediaTypeAndMalformedJSON() throws {
        let app = try TestApp()
        defer { app.stop() }
        let json = TestApp.body(["email": "x@example.test", "password": "some passphrase"])
        let plain = try app.client().send("POST", "/v1/signin", headers: [("Content-Type", "text/plain")],
                                          body: Array(json.utf8))
        #expect(plain.status == 415)
        #expect(ErrorJSON.code(plain) == "unsupported_media_type")
        let none = try app.client().send("POST", "/v1/signup", body: Array(json.utf8))
        #expect(none.status == 415)

        let padding = String(repeating: " ", count: 65 * 1024)
        let huge = try app.post("/v1/signin", "{\"email\":\"x@example.test\",\"password\":\"p\"\(padding)}")
        #expect(huge.status == 413)

        for broken in ["{", "{\"email\":", "[]", "null", "\"text\""] {
            let response = try app.post("/v1/confirm/resend", broken)
            #expect(response.status == 400 || response.status == 422, "\(broken): \(response.status)")
        }
        let malformed = try app.post("/v1/signin", "{not json")
        #expect(malformed.status == 400)
        #expect(ErrorJSON.code(malformed) == "invalid_json")
        let empty = try app.post("/v1/signin", "")
        #expect(empty.status == 400)
        #expect(ErrorJSON.code(empty) == "invalid_json")
        let missing = try app.post("/v1/signin", #"{"email":"x@example.test"}"#)
        #expect(missing.status == 422)
        #expect(ErrorJSON.code(missing) == "invalid_request")
        let wrongType = try app.post("/v1/signin", #"{"email":42,"password":["a"]}"#)
        #expect(wrongType.status == 422)
        #expect(try app.get("/healthz").status == 200, "still answering after the 413")
    }

    @Test func passwordPolicyOverHTTP() throws {
        // Refused attempts count towards the sign-up limits: lift them so only the policy answers.
        let app = try TestApp(environment: Self.unlimited())
        defer { app.stop() }
        let email = "policy@example.test"
        let cases: [(String, String)] = [
            (String(repeating: "k", count: 7), "password_too_short"),
            (String(repeating: "k", count: 129), "password_too_long"),
            (email, "password_is_email"), ("POLICY@example.test", "password_is_email"),
            ("password", "password_too_common"),
        ]
        for (password, reason) in cases {
            let response = try app.signUp(email, password)
            #expect(response.status == 422, "\(reason)")
            #expect(ErrorJSON.code(response) == "weak_password")
            #expect(ErrorJSON.reason(response) == reason)
        }
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 0)
        #expect(try app.signUp(email, "kq7#Vx2m").status == 202, "8 characters, no composition rules")
        #expect(try app.signUp("long@example.test", String(repeating: "k", count: 128)).status == 202)
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 2)
    }
}
