// AuthenticationServices' Sign in with Apple and the server's sign-in, both ways: the nonce goes into Apple's request
// (hashed), and Apple's credential comes back as the `AppleIDCredential` the client sends. Apple platforms only
// (there is no AuthenticationServices elsewhere); another platform gets its identity token from Apple's web flow and
// calls `signInWithApple(idToken:nonce:nonceID:)` itself.
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
import AuthenticationServices
import Foundation

extension AppleSignInNonce {
    /// A Sign in with Apple request for an `ASAuthorizationController`, set up by `configure(_:)`. Its
    /// `ASAuthorizationAppleIDCredential` goes to `AppleIDCredential.init(_:)`.
    public func appleIDRequest() -> ASAuthorizationAppleIDRequest {
        let request = ASAuthorizationAppleIDProvider().createRequest()
        configure(request)
        return request
    }

    /// Sets `request` up for this nonce: the nonce's hash (Apple puts it in the token's `nonce` claim, which the
    /// server checks against the nonce), and the user's name and address as scopes (Apple asks the user once, on the
    /// first authorization). For `SignInWithAppleButton`'s `onRequest`.
    public func configure(_ request: ASAuthorizationAppleIDRequest) {
        request.requestedScopes = [.fullName, .email]
        request.nonce = hashedNonce
    }
}

extension AppleIDCredential {
    /// What the server takes of Apple's credential (the `ASAuthorizationAppleIDCredential` of
    /// `authorizationController(controller:didCompleteWithAuthorization:)` or of `SignInWithAppleButton`'s
    /// `onCompletion`): the identity token and the authorization code as UTF-8 text, and the name when Apple gave one.
    /// - Throws: `invalidResponse` when Apple gave no identity token, or one that is not UTF-8 (there is then nothing
    ///   to sign in with).
    public init(_ credential: ASAuthorizationAppleIDCredential) throws(LatchError) {
        guard let tokenData = credential.identityToken, let token = String(data: tokenData, encoding: .utf8),
              !token.isEmpty else {
            throw .invalidResponse("Sign in with Apple gave no identity token")
        }
        self.init(
            identityToken: token,
            authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
            givenName: credential.fullName?.givenName,
            familyName: credential.fullName?.familyName)
    }
}
#endif
