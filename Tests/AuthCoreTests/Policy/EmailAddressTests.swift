import AuthCore
import Foundation
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

@Suite struct EmailIdentityTests {
    @Test func theKeyFoldsASCIILettersOnly() throws {
        #expect(try EmailAddress("Ann@Example.COM").key == "ann@example.com")
        // Case mapping beyond ASCII depends on language and locale: these stay distinct identities.
        #expect(try EmailAddress("İ@example.com").key != EmailAddress("i@example.com").key)
        #expect(try EmailAddress("\u{0410}nn@example.com").key != EmailAddress("\u{0430}nn@example.com").key)
        // Canonical equivalents are one address: NFC turns the Kelvin sign into K.
        #expect(try EmailAddress("\u{212A}@example.com").key == EmailAddress("k@example.com").key)
        #expect(try EmailAddress("ÄNN@example.com").key == "Änn@example.com".precomposedStringWithCanonicalMapping)
    }

    @Test func composedAndDecomposedFormsAreOneAddress() throws {
        let composed = try EmailAddress("jos\u{E9}@example.com")
        let decomposed = try EmailAddress("jose\u{301}@example.com")
        #expect(composed == decomposed && composed.key == decomposed.key)
    }

    @Test func everyVariantThatFindsTheAccountSharesItsLockoutCounter() throws {
        let h = Harness()
        try h.confirmedUser("ann@example.com")
        for variant in ["ANN@example.com", "ann@EXAMPLE.com", "Ann@Example.Com", " ann@example.com "] {
            #expect(throws: AuthError.invalidCredentials) {
                try h.service.signIn(email: variant, password: "wrong guess", ip: nil, userAgent: nil)
            }
        }
        #expect(h.store.snapshot.failures["ann@example.com"]?.count == 4)
        // A look-alike is another identity: it neither finds the account nor touches its counter.
        #expect(throws: AuthError.invalidCredentials) {
            try h.service.signIn(email: "\u{0130}nn@example.com", password: Harness.password, ip: nil, userAgent: nil)
        }
        #expect(h.store.snapshot.failures["ann@example.com"]?.count == 4)
        #expect(h.store.snapshot.failures["\u{0130}nn@example.com"]?.count == 1)
    }
}
