import Foundation

/// Reads an access token (a compact JWS) as any holder can, without checking it: its header and claims. For
/// arranging and checking rows; whether a token is trusted is only ever decided by latchd or PyJWT.
enum AccessTokenParts {
    struct NotAJWS: Error {}

    static func header(_ token: String) throws -> [String: Any] { try part(token, 0) }

    static func claims(_ token: String) throws -> [String: Any] { try part(token, 1) }

    /// The `jti`: its SHA-256 is the session's `access_token_hash`.
    static func tokenID(_ token: String) throws -> String {
        guard let id = try claims(token)["jti"] as? String else { throw NotAJWS() }
        return id
    }

    static func decode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func part(_ token: String, _ index: Int) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = decode(parts[index]),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw NotAJWS() }
        return object
    }
}
