import DeepLinkRouting
import Foundation
import HTTPServer

/// The first check on a landing-page POST: did it come from our own page?
///
/// - `Sec-Fetch-Site`, when sent, must be `same-origin`.
/// - `Origin`, when sent and not `null`, must be the link base's origin (or one of its additional hosts').
/// - At least one of the two must vouch for the request. The pages send `Referrer-Policy: no-referrer`, and under
///   that policy browsers serialise the form POST's `Origin` as `null` (Fetch §3.1), so `Sec-Fetch-Site` is what
///   modern browsers vouch with; a request with neither header (an old browser, a script) is refused: scripts have
///   the JSON API.
struct CrossSiteGuard: Sendable {
    /// Lowercased `scheme://host[:port]` values, default ports omitted (as browsers serialise `Origin`).
    let allowedOrigins: Set<String>

    init(deepLinks: DeepLinkConfiguration) {
        var origins = Set<String>()
        if let base = Self.origin(of: deepLinks.linkBase) { origins.insert(base) }
        let scheme = deepLinks.linkBase.scheme?.lowercased() ?? "https"
        for host in deepLinks.additionalHosts {
            if let url = URL(string: "\(scheme)://\(host)"), let origin = Self.origin(of: url) { origins.insert(origin) }
        }
        allowedOrigins = origins
    }

    func allows(_ headers: HTTPHeaders) -> Bool {
        let fetchSite = headers.values(for: "Sec-Fetch-Site")
        let origins = headers.values(for: "Origin")
        guard fetchSite.count <= 1, origins.count <= 1 else { return false }
        if let site = fetchSite.first, site.lowercased() != "same-origin" { return false }
        if let origin = origins.first, origin != "null" {
            return allowedOrigins.contains(origin.lowercased())
        }
        return fetchSite.first != nil
    }

    /// `scheme://host[:port]` of `url`, lowercased, the default port left out; nil without scheme or host.
    static func origin(of url: URL) -> String? {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), let host = parts.host?.lowercased(), !host.isEmpty
        else { return nil }
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        guard let port = parts.port, port != defaultPort else { return "\(scheme)://\(hostText)" }
        return "\(scheme)://\(hostText):\(port)"
    }
}
