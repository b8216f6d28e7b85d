import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// The second factor's secrets are not in the database in any readable form: the TOTP key is sealed (AES-GCM
/// under a key derived from LATCH_SECRET_KEY), recovery codes and tickets are kept as digests. Every text-like,
/// jsonb and bytea column of every table is searched (`SecretScanner`), the audit log and the outbox's mails
/// included, after the flows that touch them all have run.
@Suite struct SecondFactorSecretStorageTests {
    @Test func noTOTPKeyRecoveryCodeOrTicketIsStoredReadably() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("vault@example.test")
        let ticket = try app.ticket(user.email, user.password)
        #expect(try app.completeSignIn(ticket: ticket, code: user.authenticator.code(1)).status == 200)
        let spentTicket = try app.ticket(user.email, user.password)
        #expect(try app.completeSignIn(ticket: spentTicket, recoveryCode: user.recoveryCodes[0]).status == 200)
        let liveTicket = try app.ticket(user.email, user.password)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: liveTicket, code: user.authenticator.wrongCode),
                                   400, "invalid_mfa_code")
        // A second enrolment, left pending: its key is in the table too.
        let proven = try app.reauthenticate(bearer: user.bearer, recoveryCode: user.recoveryCodes[1])
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token
        let (pending, pendingPyOTP) = try app.enrolWithPyOTP(bearer: bearer)
        #expect(try app.count("SELECT count(*) FROM mfa_factors WHERE user_id = $1::uuid", [user.userID]) == 2)

        let scanner = SecretScanner(pool: app.pool)
        let columns = try scanner.columns()
        #expect(columns.contains { $0.table == "mfa_factors" && $0.name == "sealed_secret" }, "\(columns)")
        var texts: [String: String] = [:]
        for (label, enrollment, pyotp) in [("active", user.enrollment, user.authenticator),
                                           ("pending", pending, pendingPyOTP)] {
            texts["\(label) base32 key"] = enrollment.secret
            texts["\(label) base32 key, lower case"] = enrollment.secret.lowercased()
            texts["\(label) otpauth URI"] = enrollment.otpauth_uri
            texts["\(label) key in hex"] = Self.hex(pyotp.secretBytes)
            texts["\(label) key in base64"] = pyotp.secretBytes.base64EncodedString()
            let found = try scanner.columns(holdingBytes: pyotp.secretBytes, among: columns)
            #expect(found.isEmpty, "the raw \(label) key (20 bytes) in \(found)")
        }
        for (index, code) in user.recoveryCodes.enumerated() {
            texts["recovery code \(index)"] = code
            texts["recovery code \(index), as typed"] = code.replacingOccurrences(of: "-", with: "")
            texts["recovery code \(index), lower case"] = code.lowercased()
        }
        for (label, raw) in [("used ticket", ticket), ("spent ticket", spentTicket), ("live ticket", liveTicket)] {
            texts[label] = raw  // also searched as its 32 raw bytes
        }
        for (label, secret) in texts.sorted(by: { $0.key < $1.key }) {
            let found = try scanner.columns(holding: secret, among: columns)
            #expect(found.isEmpty, "\(label) in \(found)")
        }
        // What is stored instead: 12 + 20 + 16 bytes, and none of the key's bytes in place.
        #expect(try app.count("""
            SELECT count(*) FROM mfa_factors WHERE user_id = $1::uuid AND octet_length(sealed_secret) = 48
            """, [user.userID]) == 2)
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}

extension SecretScanner {
    /// The columns holding `bytes` as they are: inside a bytea value, or as hex in a text-like one.
    func columns(holdingBytes bytes: Data, among columns: [Column]) throws -> [Column] {
        let hex = SecondFactorSecretStorageTests.hex(bytes)
        return try columns.filter { column in
            let table = "\"\(column.table.replacingOccurrences(of: "\"", with: "\"\""))\""
            let name = "\"\(column.name.replacingOccurrences(of: "\"", with: "\"\""))\""
            let sql = column.isBytea
                ? "SELECT count(*)::int8 FROM \(table) WHERE position(decode($1, 'hex') IN \(name)) > 0"
                : "SELECT count(*)::int8 FROM \(table) WHERE strpos(lower(\(name)::text), $1) > 0"
            return try (pool.query(sql, [hex]).scalar(Int.self) ?? 0) > 0
        }
    }
}
