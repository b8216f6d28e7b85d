import HTTPServer

/// The headers of every landing page, whatever its state: the strict CSP, no referrer (the URL holds the token),
/// no framing (clickjacking of the confirm button), no caching (the page holds the token), no sniffing, no indexing.
enum LandingPageHeaders {
    static func apply(to response: inout HTTPResponse, style: LandingPageStyle) {
        let headers: [(String, String)] = [
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
