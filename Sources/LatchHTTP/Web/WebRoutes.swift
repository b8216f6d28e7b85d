import AuthCore
import DeepLinkRouting
import HTTPServer

/// The browser-facing routes next to the JSON API: the two well-known association files and the landing pages
/// behind the mailed universal links (ARCHITECTURE.md, "Mail"). latchd registers them after `LatchAPI`:
///
/// ```swift
/// var router = Router()
/// api.register(on: &router)
/// let web = WebRoutes(productName: config.productName, deepLinks: config.auth.deepLinks,
///                     wellKnown: WellKnownConfiguration(appleAppIDs: config.appleAppIDs, …),
///                     auth: service, hashingPool: pool, trustProxy: config.trustProxy)
/// web.register(on: &router)
/// ```
///
/// Landing pages are HTML with a strict CSP and no script; their forms are protected by an Origin /
/// `Sec-Fetch-Site` check and a `SameSite=Strict` double-submit cookie (see `CrossSiteGuard`, `CSRFCookie`).
public struct WebRoutes: Sendable {
    private let wellKnown: WellKnownRoutes
    private let landingPages: LandingPageRoutes

    /// - Parameters:
    ///   - productName: shown in page titles and text.
    ///   - deepLinks: prints "Open in app" (custom scheme) and gives the origin form POSTs must come from (the link
    ///     base, plus its additional hosts); an https link base also makes the CSRF cookie `Secure`.
    ///   - wellKnown: what the association files claim.
    ///   - auth: redeems tokens on POST; its ports also read a token's state on GET (without spending it), make
    ///     CSRF values and hash the inline stylesheet for the CSP.
    ///   - hashingPool: runs the reset POST, which hashes the new password.
    ///   - trustProxy: as `LatchAPI`'s: where the client address for rate limits and the audit log comes from.
    ///   - errorReporter: told about store failures (answered with a generic "temporarily unavailable" page).
    public init(
        productName: String,
        deepLinks: DeepLinkConfiguration,
        wellKnown: WellKnownConfiguration,
        auth: AuthService,
        hashingPool: WorkerPool,
        trustProxy: Bool = false,
        errorReporter: LatchAPI.ErrorReporter? = nil
    ) {
        let generator = auth.ports.tokenGenerator
        self.wellKnown = WellKnownRoutes(configuration: wellKnown)
        let secure = deepLinks.linkBase.scheme?.lowercased() == "https"
        landingPages = LandingPageRoutes(
            pages: LandingPageRenderer(productName: productName, printer: DeepLinkPrinter(configuration: deepLinks),
                                       style: LandingPageStyle(sha256: generator.digest)),
            auth: auth,
            languages: LandingLanguages(mail: auth.languages),
            clients: ClientInfoResolver(trustProxy: trustProxy),
            checks: LandingFormSubmission.Checks(crossSite: CrossSiteGuard(deepLinks: deepLinks),
                                                 cookie: CSRFCookie(secure: secure), generator: generator),
            hashingPool: hashingPool,
            errorReporter: errorReporter)
    }

    /// Adds the association files and the landing pages to `router`.
    public func register(on router: inout Router) {
        wellKnown.register(on: &router)
        landingPages.register(on: &router)
    }
}
