import Foundation
@testable import Mailer
import Testing

/// Sends to a real SMTP server when `LATCH_TEST_SMTP_URL` is set (e.g. `python3 -m aiosmtpd -n -l 127.0.0.1:2525`
/// and `LATCH_TEST_SMTP_URL=smtp://127.0.0.1:2525`); the integration suite covers this in CI with a sink.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["LATCH_TEST_SMTP_URL"] != nil))
struct SMTPTransportLiveTests {
    @Test func sendsAMultipartMessage() throws {
        let url = try #require(ProcessInfo.processInfo.environment["LATCH_TEST_SMTP_URL"])
        let transport = try SMTPTransport(url: url, connectTimeout: .seconds(5), timeout: .seconds(10))
        let subject = "Bestätige deine E-Mail-Adresse für Läääätch – jetzt sofort, bitte, danke schön 🎉"
        try transport.send(try Fixtures.message(subject: subject, outboxID: 1))
    }

}
