import CCurl

/// Runs `curl_global_init` exactly once per process, on first use, before any easy handle exists.
/// A `static let` is initialized lazily under `swift_once`, so concurrent first sends are safe.
final class CurlRuntime: Sendable {
    static let shared = CurlRuntime()

    /// The result of the one global init; sends refuse to start if it failed.
    let initCode: CURLcode

    private init() {
        initCode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }

    /// Throws if libcurl could not initialize (then no transfer can work).
    static func ready() throws(MailError) {
        let code = shared.initCode
        guard code == CURLE_OK else {
            throw .transportSetup(reason: "curl_global_init: " + String(cString: curl_easy_strerror(code)))
        }
    }
}
