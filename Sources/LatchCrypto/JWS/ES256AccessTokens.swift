import AuthCore
import Foundation
import Synchronization

/// `AccessTokenSigner` with ES256 compact JWS (RFC 7515, RFC 9068 `at+jwt`), over the keys of `SigningKeys`.
///
/// The keys are read from the database at most every `SigningKeySchedule.cacheInterval` (5 s) and kept in
/// memory in between, so a bearer check costs a signature check and no query for the keys; a key revoked
/// elsewhere stops verifying here within that interval. One thread reads while the others go on with the keys
/// they have, unless those are stale too.
///
/// Verification accepts exactly what `sign` writes: a header byte for byte Latch's (`alg` ES256, `typ` at+jwt,
/// `kid`) naming a published key, and the signature of that key. Any other header is parsed only to say why it
/// was refused.
public final class ES256AccessTokens: AccessTokenSigner, Sendable {
    /// Who the audit log names when this instance has to make a key current (no key yet, or it was revoked).
    public static let actor = "latchd"

    private let keys: SigningKeys
    private let sealer: SigningKeySealer
    private let cache = Mutex<LoadedKeyRing?>(nil)
    /// Signatures already checked (see `VerifiedTokens`): the bearer check's signature step once per token.
    private let verified = Mutex(VerifiedTokens(capacity: ES256AccessTokens.verifiedCapacity))
    /// About 4 MB at most (a token and its claims are under 1 KB): room for every client of a busy instance
    /// within one access-token lifetime.
    static let verifiedCapacity = 4096
    /// Held while the keys are read, so that one thread reads them and the others wait for its answer.
    private let reading = Mutex(())

    public init(keys: SigningKeys, sealer: SigningKeySealer) {
        self.keys = keys
        self.sealer = sealer
    }

    /// Configured once and shared: configuring costs more than encoding a token, and a configured coder is
    /// thread-safe.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private static let decoder = JSONDecoder()

    public func sign(_ claims: AccessTokenClaims) throws -> String {
        let signer = try ring().signer
        let input = signer.header + "." + Base64URL.encode(try Self.encoder.encode(claims))
        return input + "." + Base64URL.encode(try signer.key.signature(for: Data(input.utf8)))
    }

    public func verify(_ token: String) throws -> AccessTokenClaims {
        let ring = try ring()
        if let known = verified.withLock({ $0.entry(for: token) }), ring.verifiers[known.kid] != nil {
            return known.claims
        }
        guard let jws = CompactJWS(token) else { throw AccessTokenRejection.malformed }
        let kid = try ring.kidsByHeader[String(jws.header)] ?? Self.kidOfForeignHeader(jws.header)
        guard let key = ring.verifiers[kid] else { throw AccessTokenRejection.unknownKey }
        guard let signature = CompactJWS.decode(jws.signature),
              key.isValidSignature(signature, for: Data(jws.signingInput.utf8))
        else { throw AccessTokenRejection.badSignature }
        guard let payload = CompactJWS.decode(jws.payload),
              let claims = try? Self.decoder.decode(AccessTokenClaims.self, from: payload)
        else { throw AccessTokenRejection.malformed }
        let now = keys.clock.now()
        verified.withLock { $0.insert(.init(kid: kid, claims: claims), for: token, now: now) }
        return claims
    }

    public func publishedKeys() throws -> [PublicJWK] {
        try ring().published
    }

    /// Reads the keys now, whatever the cache holds (latchd at start: makes the first key if there is none).
    public func reload() throws {
        try reading.withLock { _ in
            let fresh = try LoadedKeyRing(keys.ring(actor: Self.actor), sealer: sealer, previous: cache.withLock { $0 })
            cache.withLock { $0 = fresh }
        }
    }

    private func ring() throws -> LoadedKeyRing {
        if let ring = cache.withLock({ $0 }), ring.isFresh(at: keys.clock.now()) { return ring }
        return try reading.withLock { _ in
            let previous = cache.withLock { $0 }
            if let previous, previous.isFresh(at: keys.clock.now()) { return previous }  // read while we waited
            let fresh = try LoadedKeyRing(keys.ring(actor: Self.actor), sealer: sealer, previous: previous)
            cache.withLock { $0 = fresh }
            return fresh
        }
    }

    /// The kid of a header that is not byte for byte one Latch wrote, if it would otherwise pass; else why not.
    /// Such a header can only belong to a forged or altered token (its signature then fails), but the reason it
    /// is refused is worth knowing.
    private static func kidOfForeignHeader(_ segment: Substring) throws -> String {
        guard let data = CompactJWS.decode(segment),
              let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw AccessTokenRejection.malformed }
        guard header["alg"] as? String == SigningAlgorithm.es256.rawValue else {
            throw AccessTokenRejection.algorithmNotAllowed
        }
        guard Set(header.keys).isSubset(of: ["alg", "kid", "typ"]) else { throw AccessTokenRejection.unexpectedHeader }
        guard let type = header["typ"] as? String, ["at+jwt", "application/at+jwt"].contains(type.lowercased()) else {
            throw AccessTokenRejection.wrongType
        }
        guard let kid = header["kid"] as? String else { throw AccessTokenRejection.unknownKey }
        return kid
    }
}
