import AuthCore
import Foundation
import LatchCrypto
import Synchronization

/// `IdentityTokenVerifier` for OpenID providers' id_tokens: OpenSSL for the signature, the provider's JWKS over
/// libcurl, cached per JWKS URL (`KeySetCache`). The checks run in the order `IdentityTokenVerifier.verify`
/// documents; nothing of the payload is read before the signature holds.
public final class OpenIDTokenVerifier: IdentityTokenVerifier {
    /// Longer than any id_token a provider issues (Apple's are about 1 KB): anything longer is refused unread.
    static let maxTokenLength = 16 * 1024

    private let fetcher: any KeySetFetching
    private let clock: any WallClock
    private let caches = Mutex<[URL: KeySetCache]>([:])

    /// - Parameter clock: what the cached key sets' ages are measured by (the tokens' times by `verify`'s `now`).
    public convenience init(clock: any WallClock) {
        self.init(fetcher: HTTPKeySetFetcher(), clock: clock)
    }

    init(fetcher: any KeySetFetching, clock: any WallClock) {
        self.fetcher = fetcher
        self.clock = clock
    }

    public func verify(idToken: String, from provider: IdentityProvider, now: Date)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
    {
        let token = try SignedToken(idToken)
        guard case .string(let algorithm)? = token.header["alg"],
              provider.algorithms.contains(algorithm), IdentityProvider.allowedAlgorithms.contains(algorithm),
              let scheme = JWSAlgorithm.scheme(of: algorithm)
        else { throw .algorithm }
        guard case .string(let kid)? = token.header["kid"] else { throw .algorithm }
        let key = try cache(for: provider.jwksURL).key(kid: kid, algorithm: algorithm)
        guard key.isValidSignature(token.signature, for: token.signingInput, scheme: scheme) else { throw .signature }
        guard let claims = JSONValue.object(from: token.payload) else { throw .malformed }
        return try Self.check(claims, provider, now)
    }

    private func cache(for url: URL) -> KeySetCache {
        caches.withLock { caches in
            if let cache = caches[url] { return cache }
            let cache = KeySetCache(url: url, fetcher: fetcher, clock: clock)
            caches[url] = cache
            return cache
        }
    }

    /// The claims' checks, after the signature.
    private static func check(_ claims: [String: JSONValue], _ provider: IdentityProvider, _ now: Date)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
    {
        guard let issuerClaim = claims["iss"] else { throw .issuer }
        guard let issuer = issuerClaim.string else { throw .malformed }
        guard provider.issuers.contains(issuer) else { throw .issuer }

        let audiences: [String]
        switch claims["aud"] {
        case nil: throw .audience
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?:
            let strings = values.compactMap(\.string)
            guard strings.count == values.count else { throw .malformed }
            audiences = strings
        case _?: throw .malformed
        }
        guard let audience = audiences.first(where: provider.audiences.contains) else { throw .audience }

        let expiry = try number("exp", claims)
        let issuedAt = try number("iat", claims)
        let skew = provider.clockSkew
        guard Date(timeIntervalSince1970: expiry + skew) > now else { throw .expired }
        guard Date(timeIntervalSince1970: issuedAt - skew) <= now else { throw .issuedInFuture }

        guard let subjectClaim = claims["sub"] else { throw .missingClaim }
        guard let subject = subjectClaim.string else { throw .malformed }
        guard !subject.isEmpty else { throw .missingClaim }

        return VerifiedIdentityToken(
            issuer: issuer, subject: subject, audience: audience, email: try optionalString("email", claims),
            emailVerified: flag(claims["email_verified"]),
            isPrivateEmail: provider.privateEmailClaim.map { flag(claims[$0]) } ?? false,
            nonce: try optionalString("nonce", claims))
    }

    private static func number(_ name: String, _ claims: [String: JSONValue]) throws(IdentityTokenRejection) -> Double {
        guard let claim = claims[name] else { throw .missingClaim }
        guard let value = claim.number else { throw .malformed }
        return value
    }

    private static func optionalString(_ name: String, _ claims: [String: JSONValue])
        throws(IdentityTokenRejection) -> String?
    {
        guard let claim = claims[name] else { return nil }
        guard let value = claim.string else { throw .malformed }
        return value
    }

    /// A boolean claim as providers send it: a JSON boolean, or (Apple) the string "true" or "false". Anything
    /// else, absence included, is false.
    private static func flag(_ claim: JSONValue?) -> Bool {
        switch claim {
        case .bool(let value)?: value
        case .string("true")?: true
        default: false
        }
    }
}

/// A compact JWS (RFC 7515 §7.1) taken apart: three parts of canonical unpadded base64url (`Base64URL.decode`:
/// no `=`, no other character, one spelling per byte string), the header a JSON object. The payload is only
/// decoded here; it is parsed once the signature holds.
struct SignedToken {
    var header: [String: JSONValue]
    var payload: Data
    var signature: Data
    /// `header.payload` as sent: what the signature covers.
    var signingInput: Data

    init(_ text: String) throws(IdentityTokenRejection) {
        guard text.utf8.count <= OpenIDTokenVerifier.maxTokenLength else { throw .malformed }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // An empty signature (what `alg: none` sends) gets as far as the algorithm's refusal.
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              let headerBytes = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]), let header = JSONValue.object(from: headerBytes)
        else { throw .malformed }
        self.header = header
        self.payload = payload
        self.signature = signature
        signingInput = Data(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    }
}
