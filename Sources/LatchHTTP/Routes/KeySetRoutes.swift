import AuthCore
import HTTPServer

/// `GET /.well-known/jwks.json` and `GET /.well-known/openid-configuration`: what another service needs to check
/// Latch's access tokens without calling Latch (ARCHITECTURE.md, "Signed access tokens").
///
/// Unlike the rest of the API these answers may be cached, for `LATCH_JWKS_MAX_AGE`: a rotated key is published
/// longer than that before it signs, so a verifier that honours the max-age holds every key before it meets a
/// token signed with it. Errors stay `no-store`.
struct KeySetRoutes: Sendable {
    static let jwksPath = "/.well-known/jwks.json"
    static let discoveryPath = "/.well-known/openid-configuration"

    let context: RouteContext

    func register(on router: inout Router) {
        let settings = context.auth.configuration.accessTokens
        let cacheControl = "public, max-age=\(Int(settings.jwksMaxAge))"
        let auth = context.auth
        router.get(Self.jwksPath, handler: cacheable({ _ in
            APIJSON.response(KeySet(keys: try auth.publishedSigningKeys()))
        }, cacheControl))
        let discovery = Discovery(issuer: settings.issuer, jwksURI: settings.jwksURI)
        router.get(Self.discoveryPath, handler: cacheable({ _ in APIJSON.response(discovery) }, cacheControl))
    }

    /// `handler`, with successful answers marked cacheable.
    private func cacheable(_ handler: @escaping HTTPHandler, _ cacheControl: String) -> HTTPHandler {
        { request in
            var response = try handler(request)
            if response.status == .ok { response.headers.replaceOrAdd(name: "Cache-Control", value: cacheControl) }
            return response
        }
    }

    /// A JWK Set (RFC 7517 §5): the public keys only.
    struct KeySet: Encodable {
        let keys: [PublicJWK]
    }

    /// The two members of OpenID Connect Discovery that token libraries read to find the keys.
    struct Discovery: Encodable {
        let issuer: String
        let jwksURI: String

        enum CodingKeys: String, CodingKey {
            case issuer
            case jwksURI = "jwks_uri"
        }
    }
}
