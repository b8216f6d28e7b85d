import CCurl
import Foundation

/// A provider's answer: status, headers (names lowercased, the last value of a repeated one) and body.
struct HTTPFetchResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
}

/// Why a call to a provider got no answer. Never holds a request body (it carries codes and tokens).
enum HTTPFetchError: Error, Hashable, Sendable {
    /// No answer: DNS, connection, TLS, timeout; curl's own text.
    case transport(String)
    /// The answer's body was longer than the limit.
    case tooLarge
}

/// Blocking HTTP(S) calls to identity providers over libcurl: a GET of a JWKS and form POSTs to token endpoints.
/// Each call has its own easy handle, so any number run on any threads at once. Redirects are not followed (a
/// provider's endpoints answer where they are configured) and only http and https are spoken: tests serve on
/// loopback over http, production is https.
struct HTTPFetch: Sendable {
    var timeoutSeconds = 10
    var maxBodyBytes = 256 * 1024

    func get(_ url: URL) throws(HTTPFetchError) -> HTTPFetchResponse {
        try CurlTransfer(url: url, timeoutSeconds: timeoutSeconds, maxBodyBytes: maxBodyBytes).perform()
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`, in order.
    func postForm(_ url: URL, fields: [(String, String)]) throws(HTTPFetchError) -> HTTPFetchResponse {
        let transfer = try CurlTransfer(url: url, timeoutSeconds: timeoutSeconds, maxBodyBytes: maxBodyBytes)
        try transfer.setForm(FormEncoding.encode(fields))
        return try transfer.perform()
    }
}

/// `application/x-www-form-urlencoded` with every byte outside RFC 3986's unreserved set percent-encoded (a space
/// too, as `%20`): a client secret, a code or a token can hold nothing that changes the form's shape.
enum FormEncoding {
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// libcurl's global state, set up once before the first easy handle (a `static let` runs once, under
/// `swift_once`, whichever thread comes first).
private enum CurlGlobal {
    static let initCode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}

/// One transfer: an easy handle and what it points to, freed together. Used on one thread for one call.
private final class CurlTransfer {
    /// What curl's callbacks write into; reached through the `userdata` pointer.
    final class Received {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
        var tooLarge = false
        let limit: Int

        init(limit: Int) {
            self.limit = limit
        }
    }

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let received: Received

    init(url: URL, timeoutSeconds: Int, maxBodyBytes: Int) throws(HTTPFetchError) {
        guard CurlGlobal.initCode == CURLE_OK else {
            throw .transport("curl_global_init: " + String(cString: curl_easy_strerror(CurlGlobal.initCode)))
        }
        guard let handle = curl_easy_init() else { throw .transport("curl_easy_init returned NULL") }
        self.handle = handle
        received = Received(limit: maxBodyBytes)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_URL, url.absoluteString)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_TIMEOUT, timeoutSeconds)
        // Threads other than the main one must not get SIGALRM from name resolution timeouts.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_USERAGENT, "Latch")
        let context = Unmanaged.passUnretained(received).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context)
        try check(latch_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard received.body.count + length <= received.limit else {
                received.tooLarge = true
                return 0  // curl stops the transfer with CURLE_WRITE_ERROR
            }
            buffer.withMemoryRebound(to: UInt8.self, capacity: length) { received.body.append($0, count: length) }
            return length
        }), "CURLOPT_WRITEFUNCTION")
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check(latch_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let line = buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            // A status line starts a new answer (after a 100 Continue): keep only the last one's headers.
            if line.hasPrefix("HTTP/") {
                received.headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                received.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return length
        }), "CURLOPT_HEADERFUNCTION")
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// A form body, copied by curl, and POST as the method.
    func setForm(_ body: String) throws(HTTPFetchError) {
        try set(CURLOPT_POSTFIELDSIZE, body.utf8.count)
        try set(CURLOPT_COPYPOSTFIELDS, body)
    }

    func perform() throws(HTTPFetchError) -> HTTPFetchResponse {
        let code = curl_easy_perform(handle)
        if received.tooLarge { throw .tooLarge }
        guard code == CURLE_OK else { throw failure(code) }
        var status = 0
        _ = latch_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPFetchResponse(status: status, headers: received.headers, body: received.body)
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPFetchError) {
        try check(latch_curl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPFetchError) {
        try check(latch_curl_setopt_string(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPFetchError) {
        try check(latch_curl_setopt_pointer(handle, option, pointer), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ step: String) throws(HTTPFetchError) {
        guard code == CURLE_OK else { throw .transport("\(step): " + String(cString: curl_easy_strerror(code))) }
    }

    private func failure(_ code: CURLcode) -> HTTPFetchError {
        let detail = String(cString: errorBuffer)
        return .transport(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }
}
