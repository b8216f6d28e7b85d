import AuthCore
import Testing

@Suite struct UserAgentTextTests {
    @Test(arguments: [
        ("Mozilla/5.0 (X11)", "Mozilla/5.0 (X11)"),
        ("evil\u{1B}[2J\u{1B}]0;owned\u{07}agent", "evil[2J]0;ownedagent"),
        ("right\u{202E}txt.exe", "righttxt.exe"),
        ("zero\u{200B}width\u{FEFF}", "zerowidth"),
        ("line\nbreak\r\u{85}\u{2028}", "linebreak"),
        ("\u{7F}\u{9B}", nil),
        ("   ", nil),
    ] as [(String, String?)])
    func sanitizes(_ raw: String, _ stored: String?) {
        #expect(UserAgentText.sanitized(raw) == stored)
    }

    @Test func isCutToTheMaximumLength() {
        #expect(UserAgentText.sanitized(String(repeating: "a", count: 2000))?.count == UserAgentText.maximumLength)
    }

    @Test func aSessionStoresTheSanitizedAgent() throws {
        let h = Harness()
        try h.confirmedUser()
        let issued = try h.service.signIn(email: "alice@example.com", password: Harness.password, ip: nil,
                                          userAgent: "app\u{1B}[31m/1.0").session.unwrapped("a session")
        #expect(try h.service.authenticate(accessToken: issued.accessToken).session.userAgent == "app[31m/1.0")
    }
}
