import CArgon2
import Foundation
import LatchCrypto
import Testing

@Suite struct Argon2idHasherTests {
    /// Small costs keep the suite fast; the rules under test do not depend on them.
    static let fast = try! Argon2Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)
    let hasher = Argon2idHasher(parameters: fast)

    @Test func hashThenVerify() throws {
        let phc = try hasher.hash("correct horse battery staple")
        #expect(hasher.verify("correct horse battery staple", against: phc))
        #expect(!hasher.verify("correct horse battery stapler", against: phc))
        #expect(!hasher.verify("", against: phc))
    }

    @Test func phcStringHasTheConfiguredShape() throws {
        let phc = try hasher.hash("pässwörd")
        #expect(phc.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        let parsed = try #require(Argon2PHCString(parsing: phc))
        #expect(parsed.salt.count == 16)
        #expect(parsed.hash.count == 32)
        let segments = phc.split(separator: "$")
        #expect(segments.count == 5)
        #expect(!segments[3].contains("=") && !segments[4].contains("="))
    }

    @Test func samePasswordHashesDifferentlyBecauseOfTheSalt() throws {
        let first = try hasher.hash("same password")
        let second = try hasher.hash("same password")
        #expect(first != second)
        #expect(hasher.verify("same password", against: first))
        #expect(hasher.verify("same password", against: second))
    }

    @Test func defaultParametersAreOWASP() throws {
        let hasher = Argon2idHasher()
        #expect(hasher.parameters == Argon2Parameters.owasp)
        let phc = try hasher.hash("a real password")
        #expect(phc.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(hasher.verify("a real password", against: phc))
        #expect(!hasher.needsRehash(phc))
    }

    @Test func unicodeCompositionDoesNotMatter() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let phc = try hasher.hash(composed)
        #expect(hasher.verify(decomposed, against: phc))
    }

    @Test func needsRehashWhenParametersDiffer() throws {
        let phc = try hasher.hash("password")
        #expect(!hasher.needsRehash(phc))
        for other in [
            try Argon2Parameters(memoryKiB: 128, iterations: 1, parallelism: 1),
            try Argon2Parameters(memoryKiB: 64, iterations: 2, parallelism: 1),
            try Argon2Parameters(memoryKiB: 64, iterations: 1, parallelism: 2),
        ] {
            #expect(Argon2idHasher(parameters: other).needsRehash(phc))
        }
    }

    @Test func needsRehashForOtherAlgorithmsAndGarbage() {
        #expect(hasher.needsRehash("$argon2i$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"))
        #expect(hasher.needsRehash("$2b$12$abcdefghijklmnopqrstuuJHnOr3LfOc0rTnKG0e0uXrnmzm3oXcC"))
        #expect(hasher.needsRehash(""))
    }

    @Test(arguments: [
        "",
        "$",
        "argon2id",
        "$argon2id$",
        "$argon2id$v=19$m=64,t=1,p=1$",
        "$argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHQ$",
        "$argon2id$v=19$m=64,t=1,p=1$!!!!$aGFzaA",
        "$argon2id$v=19$m=99999999999,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$t=1,m=64,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=64,t=0,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=-64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA$extra",
        "$argon2i$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "$2b$12$abcdefghijklmnopqrstuuJHnOr3LfOc0rTnKG0e0uXrnmzm3oXcC",
        "$argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA\u{0}",
    ])
    func malformedPHCVerifiesFalse(phc: String) {
        #expect(!hasher.verify("password", against: phc))
        #expect(hasher.needsRehash(phc))
    }

    @Test func tamperedHashVerifiesFalse() throws {
        let phc = try hasher.hash("password")
        var characters = Array(phc)
        let last = characters.count - 2
        characters[last] = characters[last] == "A" ? "B" : "A"
        #expect(!hasher.verify("password", against: String(characters)))
    }

    @Test func argon2iStringOfTheSamePasswordIsNotAccepted() throws {
        // A genuine argon2i hash of the same password: argon2id must refuse it rather than silently downgrade.
        let password = Array("password".utf8)
        let salt = Array("somesaltsomesalt".utf8)
        var encoded = [CChar](repeating: 0, count: 128)
        let status = argon2i_hash_encoded(1, 64, 1, password, password.count, salt, salt.count, 32, &encoded, 128)
        #expect(status == 0)
        let phc = String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(phc.hasPrefix("$argon2i$"))
        #expect(argon2_verify(phc, password, password.count, Argon2_i) == 0)
        #expect(!hasher.verify("password", against: phc))
        #expect(hasher.needsRehash(phc))
    }
}
