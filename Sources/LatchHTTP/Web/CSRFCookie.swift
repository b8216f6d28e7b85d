import AuthCore
import Foundation
import HTTPServer

/// Double-submit CSRF protection for the landing-page forms: the GET that shows a form sets a random value in a
/// cookie and puts the same value in a hidden field; the POST must bring both, equal.
///
/// Why this rather than an HMAC of the page token with a per-process key: latchd holds no state of its own and
/// runs as N instances behind a load balancer (ARCHITECTURE.md, "Scale-out"), so a form rendered by one instance must be accepted
/// by another; a per-process key would refuse it. And `SameSite=Strict` means a cross-site POST arrives without
/// the cookie at all, whereas an HMAC field can be fetched by an attacker and replayed from their own site.
/// Over https the cookie is `__Host-` prefixed (hence `Secure`, `Path=/`, no `Domain`), so a sibling subdomain
/// cannot plant one; `HttpOnly` because no script ever needs it.
struct CSRFCookie: Sendable {
    /// The hidden field's name.
    static let fieldName = "csrf"

    let name: String
    let secure: Bool

    /// - Parameter secure: true when the pages are served over https (the link base's scheme).
    init(secure: Bool) {
        self.secure = secure
        name = secure ? "__Host-latch_csrf" : "latch_csrf"
    }

    /// The `Set-Cookie` value for `value`: a session cookie, scoped to the whole host.
    func setCookie(_ value: String) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The cookie's value from the request, if present exactly once and well formed. Two cookies of the same name
    /// (one planted) are treated as none.
    func value(in headers: HTTPHeaders) -> String? {
        let values = headers.values(for: "Cookie")
            .flatMap { $0.split(separator: ";") }
            .compactMap { pair -> Substring? in
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { return nil }
                return trimmed[trimmed.index(after: equals)...]
            }
        guard values.count == 1, let value = values.first, Self.isWellFormed(value) else { return nil }
        return String(value)
    }

    /// Whether the submitted field matches the cookie, compared in constant time.
    func matches(field: String, cookie: String?, using generator: any TokenGenerator) -> Bool {
        guard let cookie, Self.isWellFormed(field[...]) else { return false }
        return generator.constantTimeEquals(Data(field.utf8), Data(cookie.utf8))
    }

    /// Base64url text of a sane length (the generator's tokens are 43 characters): anything else is not ours.
    static func isWellFormed(_ value: Substring) -> Bool {
        (16...128).contains(value.utf8.count) && TokenText.isBase64URL(value)
    }
}
