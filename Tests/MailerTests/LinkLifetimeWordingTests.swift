@testable import Mailer
import Testing

@Suite struct LinkLifetimeWordingTests {
    @Test(arguments: [
        (86_400.0, "24 hours"), (3_600, "1 hour"), (1_800, "30 minutes"), (60, "1 minute"),
        (5_400, "1 hour and 30 minutes"), (172_800, "48 hours"), (259_200, "3 days"), (45, "45 seconds"),
        (1, "1 second"), (119, "1 minute"), (7_260, "2 hours and 1 minute"),
    ])
    func words(seconds: Double, expected: String) {
        #expect(LinkLifetimeWording.describe(seconds) == expected)
    }
}
