import HTTPServer

/// The headers of every landing page, whatever its state: the strict CSP, no referrer (the URL holds the token),
/// no framing (clickjacking of the confirm button), no caching (the page holds the token), no sniffing, no indexing,
/// and the page's language.
///
/// No `Vary: Accept-Language`, although the language may follow that header: `no-store` keeps every cache from
/// storing the page, so no cache could answer one browser with another's language.
enum LandingPageHeaders {
    static func apply(to response: inout HTTPResponse, style: LandingPageStyle, language: LandingLanguage) {
        let headers: [(String, String)] = [
            ("Content-Language", language.rawValue),
            ("Content-Security-Policy", style.contentSecurityPolicy),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Robots-Tag", "noindex"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        for (name, value) in headers {
            response.headers.replaceOrAdd(name: name, value: value)
        }
    }
}
