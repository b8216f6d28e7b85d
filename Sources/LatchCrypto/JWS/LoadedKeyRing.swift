import AuthCore
import Foundation

/// The keys one instance signs and verifies with between two reads of the database (`ES256AccessTokens`): the
/// current private key opened, every published public key parsed, and the exact header each key's tokens carry.
struct LoadedKeyRing: Sendable {
    struct Signer: Sendable {
        let kid: String
        /// The base64url header segment, written once per key.
        let header: String
        let key: P256PrivateKey
    }

    let readAt: Date
    let signer: Signer
    /// Public keys by kid.
    let verifiers: [String: P256PublicKey]
    /// The header segment of each published key's tokens, to its kid: a token whose header is exactly one of
    /// these needs no JSON parsing before its signature is checked.
    let kidsByHeader: [String: String]
    let published: [PublicJWK]

    /// Opens and parses what `ring` names; keys already loaded in `previous` are reused rather than parsed again.
    init(_ ring: SigningKeyRing, sealer: SigningKeySealer, previous: LoadedKeyRing?) throws {
        readAt = ring.readAt
        let current = ring.current
        if let reused = previous?.signer, reused.kid == current.kid {
            signer = reused
        } else {
            signer = Signer(kid: current.kid, header: Self.header(kid: current.kid),
                            key: try sealer.open(current.sealedPrivateKey, kid: current.kid))
        }
        var verifiers: [String: P256PublicKey] = [:]
        var kidsByHeader: [String: String] = [:]
        for key in ring.published {
            verifiers[key.kid] = try previous?.verifiers[key.kid] ?? P256PublicKey(x963Representation: key.publicKey)
            kidsByHeader[Self.header(kid: key.kid)] = key.kid
        }
        self.verifiers = verifiers
        self.kidsByHeader = kidsByHeader
        published = ring.published.map(\.publicJWK)
    }

    /// Fresh for `SigningKeySchedule.cacheInterval` after it was read (and never if the clock went back).
    func isFresh(at now: Date) -> Bool {
        now >= readAt && now.timeIntervalSince(readAt) < SigningKeySchedule.cacheInterval
    }

    /// `{"alg":"ES256","kid":"…","typ":"at+jwt"}` in base64url: the one header Latch writes (RFC 9068 §2.1).
    static func header(kid: String) -> String {
        Base64URL.encode(Data(#"{"alg":"ES256","kid":"\#(kid)","typ":"at+jwt"}"#.utf8))
    }
}
