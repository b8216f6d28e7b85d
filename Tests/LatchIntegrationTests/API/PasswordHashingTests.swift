import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 1, over HTTP: stored passwords are Argon2id PHC strings with the configured parameters, and a
/// sign-in upgrades a hash made with older parameters (here: by another instance configured differently).
@Suite struct PasswordHashingTests {
    static func storedHash(_ app: TestApp, _ email: String) throws -> String {
        try app.pool.query("SELECT password_hash FROM users WHERE email = $1", [email]).scalar(String.self) ?? ""
    }

    @Test func aSignInRehashesWhenTheParametersChanged() throws {
        let old = try TestApp()
        defer { old.stop() }
        _ = try old.signUpAndConfirm("val@example.test", "val passphrase")
        let before = try Self.storedHash(old, "val@example.test")
        #expect(before.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"), "\(before)")

        let upgraded = try TestApp(environment: ["LATCH_ARGON2_MEMORY_KIB": "128", "LATCH_ARGON2_ITERATIONS": "2"],
                                   database: old.database)
        defer { upgraded.stopKeepingDatabase() }
        #expect(try upgraded.signIn("val@example.test", "wrong passphrase").status == 401)
        #expect(try Self.storedHash(old, "val@example.test") == before, "a failed sign-in changes nothing")
        #expect(try upgraded.signIn("val@example.test", "val passphrase").status == 200)
        let after = try Self.storedHash(old, "val@example.test")
        #expect(after.hasPrefix("$argon2id$v=19$m=128,t=2,p=1$"), "\(after)")
        #expect(try old.signIn("val@example.test", "val passphrase").status == 200, "the new hash verifies anywhere")
    }

    @Test func equalPasswordsGetDifferentSalts() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("w1@example.test", "same passphrase").status == 202)
        #expect(try app.signUp("w2@example.test", "same passphrase").status == 202)
        let first = try Self.storedHash(app, "w1@example.test")
        let second = try Self.storedHash(app, "w2@example.test")
        #expect(first.hasPrefix("$argon2id$") && second.hasPrefix("$argon2id$"))
        #expect(first != second)
    }
}
