@testable import Mailer

/// Tokens that spell the row id in letters (`42` → `row-ec`): readable in a failure message, one per id, and
/// free of digits, so a test can tell whether Mailer put anything of the id into a mail beside the token. The
/// keyed tokens latchd uses are tested with the daemon (LatchIntegrationTests, `MessageIDPrivacyTests`).
struct FakeMessageIDTokens: MessageIDTokens {
    func token(outboxID: Int64) -> String {
        let letters = String(outboxID.magnitude).unicodeScalars.map { digit in
            Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(digit.value - 48)))
        }
        return (outboxID < 0 ? "row-minus-" : "row-") + String(letters)
    }
}
