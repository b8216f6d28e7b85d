import CCurl
import Foundation

/// One libcurl easy handle and everything it points to (the error buffer, string lists, MIME trees, the objects
/// its callbacks reach), freed together with it. libcurl forbids using a handle on two threads at once and
/// `perform` blocks, so it is not `Sendable`: make one per transfer, on the thread that performs it.
///
/// Every failure is a `CurlError`; a module maps it onto its own errors.
public final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    /// Where curl writes the detailed text of a failure (`CURLOPT_ERRORBUFFER`); lives as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private var mimeTrees: [OpaquePointer] = []
    /// Objects that callbacks reach through `userdata` pointers, which do not retain them.
    private var callbackContexts: [AnyObject] = []
    private var capture: ResponseCapture?

    /// A new handle with what every transfer of a multi-threaded daemon needs: the error buffer, and
    /// `CURLOPT_NOSIGNAL` (a resolver timeout's SIGALRM cannot reach the right thread; curl's threaded resolver
    /// needs no signal).
    public init() throws(CurlError) {
        try CurlGlobal.ready()
        guard let handle = curl_easy_init() else { throw .setup("curl_easy_init returned NULL") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_NOSIGNAL, 1)
    }

    deinit {
        // The handle first: its cleanup may still reach the lists, MIME trees and buffer it was given.
        curl_easy_cleanup(handle)
        lists.forEach { curl_slist_free_all($0) }
        mimeTrees.forEach { curl_mime_free($0) }
        errorBuffer.deallocate()
    }

    // MARK: Options

    public func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(latch_curl_setopt_long(handle, option, value), Self.step(option))
    }

    /// curl copies the string.
    public func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(latch_curl_setopt_string(handle, option, value), Self.step(option))
    }

    /// The pointee must outlive the handle (or be copied by curl, as the option's documentation says).
    public func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(latch_curl_setopt_pointer(handle, option, pointer), Self.step(option))
    }

    /// A `…_MS` option from a duration, at least 1 ms: 0 would mean "no limit" to curl.
    public func set(_ option: CURLoption, milliseconds duration: Duration) throws(CurlError) {
        let (seconds, attoseconds) = duration.components
        try set(option, Int(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
    }

    /// Builds a curl string list (headers, recipients), keeps it until the handle is freed and passes it.
    public func set(_ option: CURLoption, list entries: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in entries {
            guard let longer = curl_slist_append(list, entry) else {
                if let list { curl_slist_free_all(list) }
                throw .setup("curl_slist_append failed")
            }
            list = longer
        }
        guard let list else { throw .setup("empty list for option \(option.rawValue)") }
        lists.append(list)
        try set(option, pointer: UnsafeMutableRawPointer(list))
    }

    /// A POST of exactly these bytes: the size first, so that curl does not look for a terminating zero, then
    /// `CURLOPT_COPYPOSTFIELDS`, which copies them at once.
    public func setPostBody(_ body: Data) throws(CurlError) {
        try set(CURLOPT_POSTFIELDSIZE, body.count)
        let code = body.withUnsafeBytes { bytes in
            // A non-null pointer even for an empty body.
            withUnsafeBytes(of: UInt8(0)) { empty in
                latch_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS,
                                          UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? empty.baseAddress))
            }
        }
        try check(code, Self.step(CURLOPT_COPYPOSTFIELDS))
    }

    /// `CURLOPT_OPENSOCKETFUNCTION` with `context` as its `userdata`, kept alive as long as the handle.
    public func setOpenSocketFunction(_ callback: curl_opensocket_callback, context: AnyObject) throws(CurlError) {
        callbackContexts.append(context)
        try set(CURLOPT_OPENSOCKETDATA, pointer: Unmanaged.passUnretained(context).toOpaque())
        try check(latch_curl_setopt_opensocket(handle, callback), Self.step(CURLOPT_OPENSOCKETFUNCTION))
    }

    /// An empty MIME tree for `CURLOPT_MIMEPOST`, freed after the handle.
    public func makeMIME() throws(CurlError) -> OpaquePointer {
        guard let tree = curl_mime_init(handle) else { throw .setup("curl_mime_init failed") }
        mimeTrees.append(tree)
        return tree
    }

    /// Collects the answer's headers and at most `maxBodyBytes` of its body for `perform`. Past the cap curl stops
    /// reading, and `perform` returns what came with `truncated` set. Without it curl's defaults apply (a body
    /// would go to standard output).
    public func captureResponse(maxBodyBytes: Int) throws(CurlError) {
        let capture = ResponseCapture(maxBodyBytes: maxBodyBytes)
        self.capture = capture
        let context = Unmanaged.passUnretained(capture).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context)
        try check(latch_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let capture = Unmanaged<ResponseCapture>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            // Anything but `length` makes curl stop the transfer with CURLE_WRITE_ERROR.
            return capture.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
        }), Self.step(CURLOPT_WRITEFUNCTION))
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check(latch_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let capture = Unmanaged<ResponseCapture>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            capture.receiveHeader(String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self))
            return length
        }), Self.step(CURLOPT_HEADERFUNCTION))
    }

    /// Makes the handle ready for another transfer: every option back to its default (`curl_easy_reset`) and
    /// what the last transfer was given freed, while the handle keeps its connection cache, so that the next
    /// transfer to the same server reuses an open connection instead of connecting (and greeting) again.
    public func reset() throws(CurlError) {
        // The handle first, as in deinit: until reset it may still point at the lists and MIME trees.
        curl_easy_reset(handle)
        lists.forEach { curl_slist_free_all($0) }
        lists = []
        mimeTrees.forEach { curl_mime_free($0) }
        mimeTrees = []
        callbackContexts = []
        capture = nil
        errorBuffer[0] = 0
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_NOSIGNAL, 1)
    }

    // MARK: Transfer

    /// Runs the transfer; blocks until it ends. A transfer the body cap stopped is an answer, cut short: the
    /// status and headers had arrived.
    @discardableResult
    public func perform() throws(CurlError) -> CurlResponse {
        let code = curl_easy_perform(handle)
        let truncated = capture?.truncated ?? false
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && truncated) else {
            throw .transfer(code: Int(code.rawValue), message: message(for: code))
        }
        return CurlResponse(status: responseCode, headers: capture?.headers ?? [:], body: capture?.body ?? Data(),
                            truncated: truncated)
    }

    /// The last response code received (HTTP status, SMTP reply), 0 if none: also after a failure.
    public var responseCode: Int {
        var code = 0
        _ = latch_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// How many new connections the last transfer opened: 0 when it reused one.
    public var connectionsOpened: Int {
        var count = 0
        _ = latch_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &count)
        return count
    }

    /// Throws `CurlError.call` unless `code` is `CURLE_OK`: for libcurl calls on what this handle owns (MIME parts)
    /// that the type does not wrap.
    public func check(_ code: CURLcode, _ step: String) throws(CurlError) {
        guard code == CURLE_OK else { throw .call(step: step, code: Int(code.rawValue), message: message(for: code)) }
    }

    /// The error buffer's detailed text when curl wrote one, else the code's generic text.
    private func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    private static func step(_ option: CURLoption) -> String {
        "option \(option.rawValue)"
    }
}
