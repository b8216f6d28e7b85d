import Foundation

/// What a Sign in with Apple authorization gives that the server takes (`LatchClient.signInWithApple(_:nonce:)`):
/// a Sendable copy of an `ASAuthorizationAppleIDCredential`'s fields, made where the platform's object is
/// (`init(_:)` on Apple platforms, AppleIDAuthorization.swift), so that only text crosses into the client.
public struct AppleIDCredential: Hashable, Sendable {
    /// The identity token (a JWS), as text.
    public let identityToken: String
    /// The short-lived authorization code, as text; nil when Apple gave none.
    public let authorizationCode: String?
    /// The user's name, given on the first authorization only (and only if the request asked for `.fullName`).
    public let givenName: String?
    public let familyName: String?

    public init(identityToken: String, authorizationCode: String? = nil, givenName: String? = nil,
                familyName: String? = nil) {
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.givenName = givenName
        self.familyName = familyName
    }
}

extension AppleIDCredential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `AppleIDCredential(with authorization code)`: neither token nor code nor name.
    public var description: String {
        "AppleIDCredential(" + (authorizationCode == nil ? "without" : "with") + " authorization code)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["identityToken": "<redacted>",
                                "authorizationCode": authorizationCode == nil ? "nil" : "<redacted>"],
               displayStyle: .struct)
    }
}
