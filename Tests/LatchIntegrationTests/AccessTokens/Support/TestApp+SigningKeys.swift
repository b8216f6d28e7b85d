import Foundation
import LatchTestSupport

/// The signing keys of an in-process latchd, as other services and operators see them.
extension TestApp {
    /// `GET /.well-known/jwks.json`: the keys' JSON objects and the answer's `Cache-Control`.
    func jwks() throws -> (keys: [[String: Any]], cacheControl: String?) {
        let response = try get("/.well-known/jwks.json")
        guard response.status == 200,
              let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let keys = object["keys"] as? [[String: Any]]
        else { throw FlowError.unexpected(response.status, response.text) }
        return (keys, response.header("Cache-Control"))
    }

    func publishedKids() throws -> [String] {
        try jwks().keys.compactMap { $0["kid"] as? String }
    }

    /// Moves every key's stored times `seconds` into the past: to latchd's schedule, that much time has passed
    /// for the keys (a rotated key takes over, a replaced one retires) while tokens and the clock PyJWT checks
    /// them by stay where they are.
    func ageSigningKeys(by seconds: TimeInterval) throws {
        try sql("""
            UPDATE signing_keys SET created_at = created_at - make_interval(secs => $1),
                                    activates_at = activates_at - make_interval(secs => $1),
                                    revoked_at = revoked_at - make_interval(secs => $1)
            """, [seconds])
    }

    /// The kid in an access token's header.
    static func kid(of token: String) throws -> String {
        guard let kid = try AccessTokenParts.header(token)["kid"] as? String else { throw AccessTokenParts.NotAJWS() }
        return kid
    }
}
