import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 3: signup, resend and forgot answer byte for byte the same for known and unknown emails, and
/// sign-in fails the same way for an unknown email and a wrong password.
@Suite struct EnumerationTests {
    /// Everything a client can observe of an answer except its Date.
    struct Observed: Equatable, CustomStringConvertible {
        let status: Int
        let headers: [String]
        let body: [UInt8]

        init(_ response: HTTPTestClient.Response) {
            status = response.status
            headers = response.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name): \($0.value)" }
            body = response.body
        }

        var description: String { "\(status) \(headers) \(String(decoding: body, as: UTF8.self))" }
    }

    /// One app with a confirmed, an unconfirmed and a disabled account.
    static func appWithAccounts() throws -> TestApp {
        let app = try TestApp()
        _ = try app.signUpAndConfirm("known@example.test", "known passphrase")
        #expect(try app.signUp("pending@example.test", "pending passphrase").status == 202)
        _ = try app.signUpAndConfirm("disabled@example.test", "disabled passphrase")
        try app.sql("UPDATE users SET disabled_at = now() WHERE email = 'disabled@example.test'")
        return app
    }

    static let known = ["known@example.test", "pending@example.test", "disabled@example.test"]

    @Test(arguments: [
        ("/v1/signup", true), ("/v1/confirm/resend", false), ("/v1/password/forgot", false),
    ])
    func knownAndUnknownEmailsGetIdenticalAnswers(path: String, withPassword: Bool) throws {
        let app = try Self.appWithAccounts()
        defer { app.stop() }
        func ask(_ email: String) throws -> Observed {
            var fields = ["email": email]
            if withPassword { fields["password"] = "some new passphrase" }
            return Observed(try app.post(path, fields: fields))
        }
        let unknown = try ask("nobody@example.test")
        #expect(unknown.status == 202)
        for email in Self.known {
            let answer = try ask(email)
            #expect(answer == unknown, "\(path) for \(email): \(answer) vs \(unknown)")
        }
    }

    @Test func unknownEmailAndWrongPasswordFailIdentically() throws {
        let app = try Self.appWithAccounts()
        defer { app.stop() }
        let unknown = Observed(try app.signIn("nobody@example.test", "whatever passphrase"))
        #expect(unknown.status == 401)
        for email in Self.known {
            let wrong = Observed(try app.signIn(email, "whatever passphrase"))
            #expect(wrong == unknown, "\(email): \(wrong) vs \(unknown)")
        }
    }

    @Test func theOnlyMailsAreForRealAccounts() throws {
        let app = try Self.appWithAccounts()
        defer { app.stop() }
        _ = try app.post("/v1/password/forgot", fields: ["email": "nobody@example.test"])
        _ = try app.post("/v1/confirm/resend", fields: ["email": "nobody@example.test"])
        _ = try app.post("/v1/password/forgot", fields: ["email": "disabled@example.test"])
        #expect(try app.outboxCount(to: "nobody@example.test") == 0)
        #expect(try app.outboxCount(to: "disabled@example.test", kind: .resetPassword) == 0)
        _ = try app.post("/v1/password/forgot", fields: ["email": "known@example.test"])
        #expect(try app.outboxCount(to: "known@example.test", kind: .resetPassword) == 1,
                "the positive case, so the zero counts above mean something")
    }
}
