/// The body of `/.well-known/apple-app-site-association` (the `applinks` format of iOS 13+), and the
/// `webcredentials` that let the same apps use this host's passkeys (their RP ID is this host):
/// `{"applinks":{"details":[{"appIDs":[…],"components":[{"/":"/confirmAuth"},…]}]},"webcredentials":{"apps":[…]}}`.
struct AppleAppSiteAssociation: Encodable, Equatable {
    struct AppLinks: Encodable, Equatable {
        let details: [Detail]
    }

    struct Detail: Encodable, Equatable {
        let appIDs: [String]
        let components: [Component]
    }

    /// One URL pattern; only the path (`"/"`) is matched, the token rides in the query.
    struct Component: Encodable, Equatable {
        let path: String

        enum CodingKeys: String, CodingKey {
            case path = "/"
        }
    }

    struct WebCredentials: Encodable, Equatable {
        let apps: [String]
    }

    let applinks: AppLinks
    let webcredentials: WebCredentials

    /// The paths of DeepLinkRouting's link forms: every mailed token link (each has its landing page, so a new one
    /// cannot be left out here) and everything under `home`.
    static let paths = LandingFlow.allCases.map(\.path) + ["/home/*"]

    /// With no app IDs, `details` is empty rather than holding an entry that names no app.
    init(appIDs: [String]) {
        let components = Self.paths.map(Component.init(path:))
        applinks = AppLinks(details: appIDs.isEmpty ? [] : [Detail(appIDs: appIDs, components: components)])
        webcredentials = WebCredentials(apps: appIDs)
    }
}
