import CCurl

/// libcurl's process-wide setup. `curl_global_init` must run once, before the first easy handle, and is not
/// thread-safe itself; a `static let` is initialized lazily under `swift_once`, so the first transfers may start on
/// any threads at once.
public enum CurlGlobal {
    private static let initCode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Runs the global init unless it has run; throws if libcurl could not initialize (then no transfer can work).
    /// `CurlEasy` calls it; a component calls it at start so that a broken setup shows before the first transfer.
    public static func ready() throws(CurlError) {
        guard initCode == CURLE_OK else {
            throw .setup("curl_global_init: " + String(cString: curl_easy_strerror(initCode)))
        }
    }
}
