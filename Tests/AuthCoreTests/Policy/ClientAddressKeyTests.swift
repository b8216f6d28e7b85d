import AuthCore
import Testing

@Suite struct ClientAddressKeyTests {
    @Test(arguments: [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8::1", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"),
        ("not an address", "not an address"),
        ("1:2:3", "1:2:3"),
    ])
    func keys(_ address: String, _ key: String) {
        #expect(ClientAddressKey.key(for: address) == key)
    }

    @Test func oneSubscriberPrefixSharesOnePerAddressBudget() throws {
        let h = Harness { $0.rateLimits.forgotPerIP = RateLimitRule(limit: 2, window: 3600) }
        try h.forgotPassword("a@example.com", ip: "2001:db8:1:2::1")
        try h.forgotPassword("b@example.com", ip: "2001:db8:1:2::ffff")
        #expect(throws: AuthError.rateLimited(retryAfter: 3600)) {
            try h.forgotPassword("c@example.com", ip: "2001:db8:1:2:1234:5678:9abc:def0")
        }
        try h.forgotPassword("d@example.com", ip: "2001:db8:1:3::1")
    }
}
