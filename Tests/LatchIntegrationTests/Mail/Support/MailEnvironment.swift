import AuthCore
import Foundation
import LatchApp
import LatchTestSupport

/// The environment the mail tests give latchd (in-process through `TestApp`, or the binary through
/// `MailDaemon`): real SMTP to the test's own sink, quick polls and retries so that a restarted sink is tried
/// again within seconds, cheap hashing, and rate limits high enough for a burst of sign-ups from 127.0.0.1.
enum MailEnvironment {
    static let password = "correct horse battery staple 42"
    static let newPassword = "a different horse battery 17"

    static func variables(smtpURL: String, workers: Int = 1, extra: [String: String] = [:]) -> [String: String] {
        var variables = [
            "LATCH_SMTP_URL": smtpURL,
            "LATCH_MAIL_FROM": "Latch <no-reply@latch.example.test>",
            "LATCH_LINK_BASE": TestApp.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_OUTBOX_WORKERS": String(workers),
            "LATCH_OUTBOX_POLL": "1s",
            "LATCH_DEFERRED_MAIL_INTERVAL": "0.1",
            "LATCH_OUTBOX_BACKOFF_BASE": "1s",
            "LATCH_OUTBOX_BACKOFF_CAP": "2s",
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
            "LATCH_RATE_SIGNUP_IP": "1000/1h",
            "LATCH_RATE_SIGNUP_EMAIL": "100/1h",
            "LATCH_RATE_FORGOT_IP": "1000/1h",
            "LATCH_RATE_FORGOT_EMAIL": "100/1h",
        ]
        variables.merge(extra) { $1 }
        return variables
    }

    /// The Message-ID tokens of a daemon running with `TestSecret`, for tests that build messages themselves.
    static func messageIDTokens() throws -> HMACMessageIDTokens {
        HMACMessageIDTokens(secret: try ServerSecret(base64: TestSecret.base64))
    }

    /// A fresh recipient address, unique across tests and runs.
    static func recipient(_ label: String) -> String {
        "\(label)-\(UUID().uuidString.prefix(8).lowercased())@example.test"
    }

    static func signUpJSON(_ email: String, password: String = password) -> String {
        #"{"email":"\#(email)","password":"\#(password)"}"#
    }
}
