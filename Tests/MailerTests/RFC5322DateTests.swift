import Foundation
@testable import Mailer
import Testing

@Suite struct RFC5322DateTests {
    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"),
        (1_751_360_703, "Tue, 01 Jul 2025 09:05:03 +0000"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
        (1_767_225_599, "Wed, 31 Dec 2025 23:59:59 +0000"),
    ])
    func formatsInUTC(seconds: Double, expected: String) {
        #expect(RFC5322Date.format(Date(timeIntervalSince1970: seconds)) == expected)
    }
}
