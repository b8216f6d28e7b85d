import Foundation
import LatchTestSupport
import Testing

/// The association files let the apps use the site's passkeys: Apple's `webcredentials` lists the app ids, and the
/// Android statement grants `get_login_creds` beside the universal links' `handle_all_urls`.
@Suite struct PasskeyAssociationTests {
    /// A whole SHA-256 fingerprint: latchd derives the app's WebAuthn origin from it.
    static let fingerprint = (0..<32).map { _ in "5E" }.joined(separator: ":")

    @Test func associationFilesShareCredentialsWithTheApps() throws {
        let app = try TestApp(environment: [
            "LATCH_APP_IDS": "ABCDE12345.com.example.app",
            "LATCH_ANDROID_PACKAGE": "com.example.app",
            "LATCH_ANDROID_CERT_FINGERPRINTS": Self.fingerprint,
        ])
        defer { app.stop() }
        let apple = try app.get("/.well-known/apple-app-site-association")
        #expect(apple.status == 200, "\(apple.text)")
        let webcredentials = PasskeyTesting.object(apple)["webcredentials"] as? [String: Any]
        #expect(webcredentials?["apps"] as? [String] == ["ABCDE12345.com.example.app"], "\(apple.text)")

        let android = try app.get("/.well-known/assetlinks.json")
        #expect(android.status == 200, "\(android.text)")
        let statements = (try? JSONSerialization.jsonObject(with: Data(android.body))) as? [[String: Any]]
        let relations = statements?.first?["relation"] as? [String]
        #expect(Set(relations ?? []) == ["delegate_permission/common.handle_all_urls",
                                        "delegate_permission/common.get_login_creds"], "\(android.text)")
    }

    /// Without app ids there is nothing to share: `webcredentials` is absent or lists no app.
    @Test func noAppsNoWebCredentials() throws {
        let app = try TestApp()
        defer { app.stop() }
        let apple = try app.get("/.well-known/apple-app-site-association")
        #expect(apple.status == 200, "\(apple.text)")
        let webcredentials = PasskeyTesting.object(apple)["webcredentials"] as? [String: Any]
        #expect(webcredentials == nil || (webcredentials?["apps"] as? [String])?.isEmpty == true, "\(apple.text)")
    }
}
