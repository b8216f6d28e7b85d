import Foundation

/// The pages' only stylesheet, inline, and the CSP source that allows exactly it. A hash rather than a nonce:
/// the CSS never changes, so the policy is the same on every response and needs no randomness per request.
struct LandingPageStyle: Sendable {
    /// The exact text between `<style>` and `</style>`: the hash covers these bytes.
    static let css = """
        :root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}\
        body{margin:0;padding:2rem 1rem;background:Canvas;color:CanvasText}\
        main{max-width:28rem;margin:0 auto}\
        h1{font-size:1.5rem;margin:0 0 1rem}\
        label{display:block;font-weight:600;margin:1rem 0 .25rem}\
        input[type=password]{box-sizing:border-box;width:100%;padding:.6rem;font:inherit;border:1px solid GrayText;border-radius:.4rem}\
        button,.app{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;font:inherit;border-radius:.4rem;\
        border:0;background:#0b57d0;color:#fff;text-decoration:none;cursor:pointer}\
        .app{background:transparent;color:LinkText;text-decoration:underline;padding-left:0}\
        .app.primary{background:#0b57d0;color:#fff;text-decoration:none;padding-left:1.2rem}\
        :focus-visible{outline:3px solid #e8710a;outline-offset:2px}\
        .hint{margin:.25rem 0 0;font-size:.9rem}\
        .problem{color:#b3261e;font-weight:600}
        """

    /// `'sha256-…'` for `style-src`.
    let source: String

    /// - Parameter sha256: SHA-256 of a string's UTF-8 bytes (AuthCore's `TokenGenerator.digest` is exactly that).
    init(sha256: (String) -> Data) {
        source = "'sha256-" + sha256(Self.css).base64EncodedString() + "'"
    }

    /// The `Content-Security-Policy` of every landing page: nothing may load, no script runs, the form may only
    /// post back here, nobody may frame the page, and `<base>` cannot redirect the relative form action.
    var contentSecurityPolicy: String {
        "default-src 'none'; style-src \(source); form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }
}
