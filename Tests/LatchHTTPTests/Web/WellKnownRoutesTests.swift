import DeepLinkRouting
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct WellKnownRoutesTests {
    @Test func appleAssociationListsTheAppsAndTheLinkPaths() throws {
        let web = try WebHarness(wellKnown: WellKnownConfiguration(appleAppIDs: ["ABCDE12345.com.example.app",
                                                                               "ABCDE12345.com.example.beta"]))
        let response = web.send(.get, "/.well-known/apple-app-site-association")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["Location"] == nil)
        #expect(response.text == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","#
            + #""ABCDE12345.com.example.beta"],"components":[{"/":"/confirmAuth"},{"/":"/resetPassword"},"#
            + #"{"/":"/confirmEmailChange"},{"/":"/signIn"},{"/":"/acceptInvite"},{"/":"/home/*"}]}]},"#
            + #""webcredentials":{"apps":["ABCDE12345.com.example.app","ABCDE12345.com.example.beta"]}}"#)
    }

    /// The app opens a mailed link only if the association claims its path: each token link's path as
    /// DeepLinkRouting prints it is claimed, and is its landing page's. (Android's statement lists no paths: it lets
    /// the app handle every URL of the host, and the app's manifest picks them.)
    @Test func everyMailedTokenLinkIsClaimedAtThePathDeepLinkRoutingPrints() throws {
        let printer = DeepLinkPrinter(configuration: DeepLinkConfiguration(
            appScheme: "myapp", linkBase: try #require(URL(string: WebHarness.linkBase))))
        let web = try WebHarness()
        for flow in LandingFlow.allCases {
            let path = printer.universalURL(for: flow.appLink(token: String(repeating: "T", count: 43))).path
            #expect(path == flow.path, "\(flow)")
            #expect(AppleAppSiteAssociation.paths.contains(path), "\(flow)")
            #expect(web.router.routes.contains { $0.method == .get && $0.path == path }, "\(flow)")
        }
        #expect(AppleAppSiteAssociation.paths.contains("/signIn"))
    }

    @Test func assetLinksNameThePackageAndFingerprints() throws {
        let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let web = try WebHarness(wellKnown: WellKnownConfiguration(androidPackage: "com.example.app",
                                                                   androidCertFingerprints: [fingerprint]))
        let response = web.send(.get, "/.well-known/assetlinks.json")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json")
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(statements.count == 1)
        // Links, and the passkeys whose RP ID is this host (Credential Manager).
        #expect(statements.first?["relation"] as? [String] == [
            "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
        ])
        let target = try #require(statements.first?["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.app")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [fingerprint])
    }

    @Test func emptyConfigurationStillServesValidJSON() throws {
        let web = try WebHarness()
        let apple = web.send(.get, "/.well-known/apple-app-site-association")
        let android = web.send(.get, "/.well-known/assetlinks.json")
        #expect(apple.status == .ok && android.status == .ok)
        #expect(apple.text == #"{"applinks":{"details":[]},"webcredentials":{"apps":[]}}"#)
        #expect(android.text == "[]")
        #expect((try? JSONSerialization.jsonObject(with: Data(apple.body))) != nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(android.body))) != nil)
    }

    @Test func headIsAnsweredLikeGet() throws {
        let web = try WebHarness()
        #expect(web.send(.head, "/.well-known/assetlinks.json").status == .ok)
    }
}
