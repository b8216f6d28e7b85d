import AuthCore
import Foundation
import Testing

@Suite struct EmailAddressTests {
    @Test func lowercasesOnlyTheDomain() throws {
        let email = try EmailAddress("Alice.Smith@Example.COM")
        #expect(email.value == "Alice.Smith@example.com")
        #expect(email.key == "alice.smith@example.com")
        #expect(email.localPart == "Alice.Smith")
    }

    @Test(arguments: [
        "a@b.co", "first.last@example.com", "x+tag@sub.example.co.uk", "!#$&'*+-/=^_`{|}~@example.com",
        "a..b@example.com", "0@0.0", "user@xn--bcher-kva.de", "a-b@a-b.c-d",
    ])
    func accepts(_ raw: String) throws {
        #expect(try EmailAddress(raw).value == raw.lowercasedDomain)
    }

    @Test(arguments: [
        "", "alice", "alice@", "@example.com", "alice@example", "alice@@example.com", "a@b@example.com",
        "alice smith@example.com", "alice@exa mple.com", "alice\u{0007}@example.com", "alice@example.com\u{200B}x",
        "alice@.com", "alice@example.", "alice@example..com",
        // Whitespace is not trimmed: the address is taken as sent.
        " alice@example.com", "alice@example.com ", "alice@example.com\n",
        // Dots may not open or close the local part.
        ".alice@example.com", "alice.@example.com",
        // Host names: letters, digits and inner hyphens only.
        "alice@-example.com", "alice@example-.com", "alice@exa_mple.com", "alice@[127.0.0.1]",
        // What the outbox cannot send: quoted local parts, specials, non-ASCII.
        "\"alice smith\"@example.com", "a,b@example.com", "a<b@example.com", "a(b)@example.com", "a\\b@example.com",
        "jörg@bücher.de", "jörg@example.com", "alice@bücher.de", "\u{0130}@example.com", "alice\u{0000}@example.com",
        // What a relay may deliver elsewhere: the percent hack and encoded-word look-alikes.
        "victim%evil.example@example.com", "%@example.com", "=?utf-8?q?victim?=@example.com", "a=?b@example.com",
        "what?@example.com",
    ])
    func rejects(_ raw: String) {
        #expect(throws: AuthError.invalidEmail) { try EmailAddress(raw) }
    }

    @Test func lengthLimitIs254Characters() throws {
        let domain = "@" + String(repeating: "d", count: 63) + "." + String(repeating: "e", count: 63) + "."
            + String(repeating: "f", count: 61)
        let fits = String(repeating: "a", count: 254 - domain.count) + domain
        #expect(try EmailAddress(fits).value.utf8.count == 254)
        // One more character in the last label breaks no other rule.
        #expect(throws: AuthError.invalidEmail) { try EmailAddress(fits + "f") }
    }

    @Test func theLocalPartHoldsAtMost64AndALabelAtMost63Characters() throws {
        let local64 = String(repeating: "a", count: 64)
        #expect(try EmailAddress(local64 + "@example.com").localPart == local64)
        #expect(throws: AuthError.invalidEmail) { try EmailAddress(local64 + "a@example.com") }
        let label63 = String(repeating: "b", count: 63)
        #expect(try EmailAddress("a@" + label63 + ".com").value == "a@" + label63 + ".com")
        #expect(throws: AuthError.invalidEmail) { try EmailAddress("a@" + label63 + "b.com") }
    }
}

private extension String {
    var lowercasedDomain: String {
        guard let at = firstIndex(of: "@") else { return self }
        return String(self[..<at]) + self[at...].lowercased()
    }
}

@Suite struct EmailIdentityTests {
    @Test func theKeyFoldsASCIILetters() throws {
        #expect(try EmailAddress("Ann@Example.COM").key == "ann@example.com")
        #expect(try EmailAddress("ANN+X@EXAMPLE.COM").key == EmailAddress("ann+x@example.com").key)
        // Letters whose case mapping depends on language and locale cannot be an address at all.
        #expect(throws: AuthError.invalidEmail) { try EmailAddress("\u{212A}@example.com") }
    }

    @Test func everyVariantThatFindsTheAccountSharesItsLockoutCounter() throws {
        let h = Harness()
        try h.confirmedUser("ann@example.com")
        for variant in ["ANN@example.com", "ann@EXAMPLE.com", "Ann@Example.Com", "aNN@example.COM"] {
            #expect(throws: AuthError.invalidCredentials) {
                try h.service.signIn(email: variant, password: "wrong guess", ip: nil, userAgent: nil)
            }
        }
        #expect(h.store.snapshot.failures["ann@example.com"]?.count == 4)
        // A look-alike is no address: refused before it can find an account or touch a counter.
        #expect(throws: AuthError.invalidEmail) {
            try h.service.signIn(email: "\u{0130}nn@example.com", password: Harness.password, ip: nil, userAgent: nil)
        }
        #expect(h.store.snapshot.failures["ann@example.com"]?.count == 4)
        #expect(h.store.snapshot.failures.count == 1)
    }

    @Test func anAccountStoredUnderTheEarlierRuleIsStillFoundByAnOperatorAndCanBeMoved() throws {
        let h = Harness()
        let legacy = try h.store.insertUser(
            NewUser(id: UserID(), email: EmailAddress(stored: "Jörg@bücher.de"), passwordHash: "x",
                    createdAt: h.clock.now()),
            emailConfirmedAt: h.clock.now())
        #expect(EmailAddress(stored: "Jörg@bücher.de").key == "jörg@bücher.de")
        #expect(EmailAddress(lookup: "ANN@Example.com").key == "ann@example.com")
        let operations = AdminOperations(service: h.service, actor: "opal")
        #expect(throws: AdminOperations.Failure.unknownUser(email: "JÖRG@bücher.de"), "only ASCII letters fold") {
            try operations.user(email: "JÖRG@bücher.de")
        }
        #expect(try operations.user(email: "jörg@bücher.de").id == legacy.id)
        let moved = try operations.setEmail(email: "jörg@bücher.de", to: "joerg@buecher.de", confirmed: true)
        #expect(moved.email == "joerg@buecher.de")
    }
}
