import Foundation

/// What Sign in with Apple starts with (`LatchClient.appleSignInNonce()`): a nonce the server issued, single use, for
/// `expiresIn` seconds (5 minutes). Apple's sheet gets `hashedNonce` (`ASAuthorizationAppleIDRequest.nonce`, which
/// `configure(_:)` sets on Apple platforms) and puts it in the identity token's `nonce` claim; the sign-in sends the
/// token with `nonce` and `nonceID` (`signInWithApple(idToken:nonce:)`), and the server checks that the claim is
/// the hash of the nonce it issued. A token stolen on its way cannot be replayed: its nonce is spent, and only the
/// app that asked for it holds it.
///
/// As secret as the token it goes with, for its short life: its printed forms never show `nonce`.
public struct AppleSignInNonce: Hashable, Sendable {
    /// Goes back with the identity token (`nonce_id`).
    public let nonceID: UUID
    /// The nonce as the server sent it (43 characters of base64url); goes back with the identity token.
    public let nonce: String
    /// Lowercase hex of SHA-256 of `nonce`'s UTF-8 bytes (64 characters): what Apple's request takes as its nonce.
    public let hashedNonce: String
    /// Seconds the server keeps the nonce from its answer; after that the sign-in is refused (`invalidNonce`).
    public let expiresIn: Int

    public init(nonceID: UUID, nonce: String, expiresIn: Int) {
        self.nonceID = nonceID
        self.nonce = nonce
        self.expiresIn = expiresIn
        hashedNonce = Self.hash(nonce)
    }

    /// Lowercase hex of SHA-256 of `nonce`'s UTF-8 bytes, as Apple's documentation and the server compute it.
    static func hash(_ nonce: String) -> String {
        SHA256Hash.digest(Data(nonce.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }
}

/// `{"nonce_id", "nonce", "expires_in"}`; `hashedNonce` is computed, not read.
extension AppleSignInNonce: Decodable {
    enum CodingKeys: String, CodingKey {
        case nonce
        case nonceID = "nonce_id"
        case expiresIn = "expires_in"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(nonceID: try container.decode(UUID.self, forKey: .nonceID),
                  nonce: try container.decode(String.self, forKey: .nonce),
                  expiresIn: try container.decode(Int.self, forKey: .expiresIn))
    }
}

extension AppleSignInNonce: APIResponse {}

extension AppleSignInNonce: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `AppleSignInNonce(<id>, for 300 s)`: the nonce itself is left out.
    public var description: String { "AppleSignInNonce(\(nonceID.uuidString.lowercased()), for \(expiresIn) s)" }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: everything but the nonce (its hash goes to Apple, and is in the token).
    public var customMirror: Mirror {
        Mirror(self, children: ["nonceID": nonceID, "nonce": "<redacted>", "hashedNonce": hashedNonce,
                                "expiresIn": expiresIn], displayStyle: .struct)
    }
}
