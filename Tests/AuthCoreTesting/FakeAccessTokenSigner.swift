import AuthCore
import Foundation
import Synchronization

/// Access tokens without cryptography, for AuthService in memory: a token is `fake.<base64url JSON>.<n>` and
/// verifies only if this signer issued exactly that string, so a changed claim fails as a bad signature would.
/// The real ES256 signer is tested in LatchCryptoTests and, with the real keys, in LatchIntegrationTests.
public final class FakeAccessTokenSigner: AccessTokenSigner, Sendable {
    private let issued = Mutex<[String: AccessTokenClaims]>([:])
    private let failing = Mutex(false)

    /// The one key `publishedKeys` lists.
    public static let key = PublicJWK(kid: "fake-key", alg: "ES256", x: "eA", y: "eQ")

    public init() {}

    /// Makes every call throw `InMemoryAuthStore.DatabaseDown`, as the real signer does when it cannot read the
    /// keys.
    public func setFailing(_ value: Bool) { failing.withLock { $0 = value } }

    /// Every token issued so far with its claims.
    public var tokens: [String: AccessTokenClaims] { issued.withLock { $0 } }

    public func sign(_ claims: AccessTokenClaims) throws -> String {
        if failing.withLock({ $0 }) { throw InMemoryAuthStore.DatabaseDown() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = try encoder.encode(claims).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return issued.withLock { issued in
            let token = "fake.\(payload).\(issued.count + 1)"
            issued[token] = claims
            return token
        }
    }

    public func verify(_ token: String) throws -> AccessTokenClaims {
        if failing.withLock({ $0 }) { throw InMemoryAuthStore.DatabaseDown() }
        guard token.hasPrefix("fake."), token.split(separator: ".").count == 3 else {
            throw AccessTokenRejection.malformed
        }
        guard let claims = issued.withLock({ $0[token] }) else { throw AccessTokenRejection.badSignature }
        return claims
    }

    public func publishedKeys() throws -> [PublicJWK] {
        if failing.withLock({ $0 }) { throw InMemoryAuthStore.DatabaseDown() }
        return [Self.key]
    }
}
