import AuthCore
import Foundation
import Testing
@testable import WebAuthn

/// COSE/COSEKey.swift and CredentialPublicKey.swift: what makes a COSE key's algorithm wrong (`.algorithm`) and
/// what makes the key itself wrong (`.publicKey`), before any signature is looked at.
@Suite struct COSEKeyTests {
    private func reason(_ key: CBORValue, allowing algorithms: [PasskeyAlgorithm] = PasskeyAlgorithm.allCases)
        -> PasskeyRejection.Reason?
    {
        do {
            _ = try CredentialPublicKey(try COSEKey.parse(key, allowing: algorithms))
            return nil
        } catch {
            return error.reason
        }
    }

    /// The key's map with `label` set to `value` (or removed, for nil), other entries in place.
    private func replacing(_ label: Int, with value: CBORValue?, in key: CBORValue) -> CBORValue {
        var entries = key.entries ?? []
        if let index = entries.firstIndex(where: { $0.key == .int(label) }) {
            if let value { entries[index].value = value } else { entries.remove(at: index) }
        } else if let value {
            entries.append(CBORMapEntry(key: .int(label), value: value))
        }
        return .map(entries)
    }

    @Test func eachAlgorithmsKeyIsAccepted() throws {
        for key in [try TestKey.p256(), try TestKey.ed25519(), try TestKey.rsa()] {
            #expect(reason(try key.cose) == nil, "\(key.algorithm)")
            #expect(try COSEKey.parse(try key.cose, allowing: [key.algorithm]).algorithm == key.algorithm)
        }
    }

    @Test func anAlgorithmNotOfferedIsRefused() throws {
        let key = try TestKey.ed25519()
        #expect(reason(try key.cose, allowing: [.es256, .rs256]) == .algorithm)
    }

    @Test func aMissingOrUnknownAlgorithmIsRefused() throws {
        let key = try TestKey.p256().cose
        #expect(reason(replacing(3, with: nil, in: key)) == .algorithm)
        #expect(reason(replacing(3, with: .int(-35), in: key)) == .algorithm, "ES384")
        #expect(reason(replacing(3, with: .text("ES256"), in: key)) == .algorithm)
    }

    /// An algorithm that was offered but names another key type or curve than the key has.
    @Test func anAlgorithmThatDoesNotMatchTheKeyIsRefused() throws {
        let ec = try TestKey.p256().cose
        #expect(reason(replacing(3, with: .int(-8), in: ec)) == .algorithm, "EdDSA on an EC2 key")
        #expect(reason(replacing(3, with: .int(-257), in: ec)) == .algorithm, "RS256 on an EC2 key")
        #expect(reason(replacing(-1, with: .int(2), in: ec)) == .algorithm, "ES256 on P-384")
        let okp = try TestKey.ed25519().cose
        #expect(reason(replacing(-1, with: .int(7), in: okp)) == .algorithm, "EdDSA on Ed448")
        #expect(reason(replacing(1, with: .int(4), in: okp)) == .algorithm, "a symmetric key type")
    }

    @Test func aKeyThatIsNotAMapOrHasOtherLabelsIsRefused() throws {
        let ec = try TestKey.p256().cose
        #expect(reason(.array([])) == .publicKey)
        #expect(reason(replacing(-4, with: .bytes(Data(repeating: 1, count: 32)), in: ec)) == .publicKey,
                "a private key d")
        #expect(reason(replacing(2, with: .bytes(Data([1])), in: ec)) == .publicKey, "a kid")
        #expect(reason(.map((ec.entries ?? []) + [CBORMapEntry(key: .text("x"), value: .null)])) == .publicKey)
        #expect(reason(replacing(1, with: nil, in: ec)) == .publicKey, "no kty")
        #expect(reason(replacing(-1, with: nil, in: ec)) == .publicKey, "no crv")
    }

    @Test func coordinatesOfTheWrongSizeOrTypeAreRefused() throws {
        let ec = try TestKey.p256().cose
        #expect(reason(replacing(-2, with: .bytes(Data(repeating: 1, count: 31)), in: ec)) == .publicKey)
        #expect(reason(replacing(-3, with: .bool(true), in: ec)) == .publicKey, "a compressed point")
        #expect(reason(replacing(-3, with: nil, in: ec)) == .publicKey)
        let okp = try TestKey.ed25519().cose
        #expect(reason(replacing(-2, with: .bytes(Data(repeating: 1, count: 33)), in: okp)) == .publicKey)
        let rsa = try TestKey.rsa().cose
        #expect(reason(replacing(-2, with: nil, in: rsa)) == .publicKey)
        #expect(reason(replacing(-1, with: .bytes(Data()), in: rsa)) == .publicKey)
    }

    /// The invalid-curve attack's first step: a point that is not on P-256.
    @Test func aPointOffTheCurveIsRefused() throws {
        let key = try TestKey.p256()
        var y = try key.ecPoint.suffix(32)
        y[y.endIndex - 1] ^= 0x01
        #expect(reason(replacing(-3, with: .bytes(Data(y)), in: try key.cose)) == .publicKey)
        #expect(reason(replacing(-2, with: .bytes(Data(count: 32)),
                                 in: replacing(-3, with: .bytes(Data(count: 32)), in: try key.cose))) == .publicKey,
                "(0, 0)")
    }

    @Test func anRSAKeyUnder2048BitsIsRefused() throws {
        #expect(reason(try TestKey.rsa(bits: 1024).cose) == .publicKey)
    }

    /// OpenSSL's RSA public check: e = 1 would make every padded message its own signature.
    @Test func anRSAKeyWithExponentOneOrEvenIsRefused() throws {
        let rsa = try TestKey.rsa().cose
        #expect(reason(replacing(-2, with: .bytes(Data([0x01])), in: rsa)) == .publicKey, "e = 1")
        #expect(reason(replacing(-2, with: .bytes(Data([0x01, 0x00, 0x00])), in: rsa)) == .publicKey, "e even")
    }
}
