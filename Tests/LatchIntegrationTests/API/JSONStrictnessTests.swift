import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 7: a body that is not RFC 8259 JSON is refused with 400 `invalid_json`, so a proxy or
/// WAF in front of latchd and latchd itself can never read one request two different ways.
@Suite struct JSONStrictnessTests {
    @Test(arguments: [
        #"{"email":"x@example.test",}"#,
        #"{"email":"x@example.test" /* c */}"#,
        #"{email:"x@example.test"}"#,
        #"{"email":'x@example.test'}"#,
        #"{"email":"x@example.test"} trailing"#,
    ])
    func nonStandardJSONIsRefused(body: String) throws {
        let app = try TestApp()
        defer { app.stop() }
        let response = try app.post("/v1/confirm/resend", body)
        #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
        #expect(ErrorJSON.code(response) == "invalid_json")
    }

    /// The second spelling is the same name once its escapes are decoded, as Foundation decodes it.
    @Test(arguments: [#""email""#, #""\u0065mail""#, #""\u0065\u006d\u0061\u0069\u006c""#])
    func aDuplicatedKeyIsNotSilentlyResolved(secondName: String) throws {
        let app = try TestApp()
        defer { app.stop() }
        let body = #"{"email":"a@example.test","password":"one passphrase","# + secondName + #":"b@example.test"}"#
        let response = try app.post("/v1/signup", body)
        #expect(response.status == 400 || response.status == 422, "\(response.status) \(response.text)")
        let created = try app.pool.query("SELECT email::text FROM users").map { try $0.decode(String.self, column: 0) }
        #expect(created.isEmpty, "signed up \(created)")
    }
}
