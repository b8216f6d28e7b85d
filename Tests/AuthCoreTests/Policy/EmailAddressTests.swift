import AuthCore
import Testing

@Suite struct EmailAddressTests {
    @Test func trimsAndLowercasesOnlyTheDomain() throws {
        let email = try EmailAddress("  Alice.Smith@Example.COM \n")
        #expect(email.value == "Alice.Smith@example.com")
        #expect(email.key == "alice.smith@example.com")
        #expect(email.localPart == "Alice.Smith")
    }

    @Test(arguments: [
        "", "alice", "alice@", "@example.com", "alice@example", "alice@@example.com", "a@b@example.com",
        "alice smith@example.com", "alice@exa mple.com", "alice\u{0007}@example.com", "alice@example.com\u{200B}x",
        "alice@.com", "alice@example.", "alice@example..com",
    ])
    func rejects(_ raw: String) {
        #expect(throws: AuthError.invalidEmail) { try EmailAddress(raw) }
    }

    @Test func lengthLimitIs254Bytes() throws {
        let domain = "@example.com"
        let fits = String(repeating: "a", count: 254 - domain.count) + domain
        #expect(try EmailAddress(fits).value.utf8.count == 254)
        #expect(throws: AuthError.invalidEmail) { try EmailAddress("a" + fits) }
    }

    @Test func acceptsInternationalAddresses() throws {
        #expect(try EmailAddress("jörg@bücher.de").value == "jörg@bücher.de")
    }
}
