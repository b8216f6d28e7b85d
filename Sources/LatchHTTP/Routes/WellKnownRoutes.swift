import Foundation
import HTTPServer

/// `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json`: the files with which iOS
/// and Android verify that the app may open this host's universal links. Rendered once, at start, from config.
///
/// Served as plain `application/json` with a 200 and never a redirect (Apple's fetcher does not follow them),
/// cacheable for an hour: the files only change with a redeploy.
struct WellKnownRoutes: Sendable {
    static let appleAssociationPath = "/.well-known/apple-app-site-association"
    static let assetLinksPath = "/.well-known/assetlinks.json"

    let appleAssociation: [UInt8]
    let assetLinks: [UInt8]

    init(configuration: WellKnownConfiguration) {
        appleAssociation = Self.encode(AppleAppSiteAssociation(appIDs: configuration.appleAppIDs))
        assetLinks = Self.encode(AssetLinks(package: configuration.androidPackage,
                                            fingerprints: configuration.androidCertFingerprints))
    }

    func register(on router: inout Router) {
        let apple = Self.response(appleAssociation)
        let android = Self.response(assetLinks)
        router.get(Self.appleAssociationPath) { _ in apple }
        router.get(Self.assetLinksPath) { _ in android }
    }

    static func response(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": "application/json",
            "Cache-Control": "public, max-age=3600",
            "X-Content-Type-Options": "nosniff",
        ], body: body)
    }

    /// Sorted keys and unescaped slashes: stable bytes, and `"/confirmAuth"` reads as written.
    private static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only plain strings and arrays: encoding cannot fail; `[]` keeps the file valid JSON even so.
        return (try? Array(encoder.encode(value))) ?? Array("[]".utf8)
    }
}
