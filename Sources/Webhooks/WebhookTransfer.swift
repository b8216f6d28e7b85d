import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libcurl's global state, set up once before the first easy handle (a `static let` runs once, under
/// `swift_once`, whichever thread comes first).
private enum CurlGlobal {
    static let initCode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}

/// One POST on its own easy handle, used on one thread and freed with everything it points to.
final class WebhookTransfer {
    enum Result {
        case answered(status: Int, retryAfter: String?, body: Data)
        case transport(String)
        case refused(WebhookRefusal)
    }

    /// What curl's callbacks read and write; reached through their `userdata` pointers.
    final class Context {
        let policy: WebhookTargetPolicy
        let plainHTTP: Bool
        let limit: Int
        var refusal: WebhookRefusal?
        var retryAfter: String?
        var body = Data()
        var truncated = false

        init(policy: WebhookTargetPolicy, plainHTTP: Bool, limit: Int) {
            self.policy = policy
            self.plainHTTP = plainHTTP
            self.limit = limit
        }
    }

    static func run(_ request: WebhookRequest, policy: WebhookTargetPolicy, plainHTTP: Bool, timeout: Duration,
                    maxResponseBytes: Int) -> Result {
        guard CurlGlobal.initCode == CURLE_OK else {
            return .transport("curl_global_init: " + String(cString: curl_easy_strerror(CurlGlobal.initCode)))
        }
        guard let transfer = WebhookTransfer(
            context: Context(policy: policy, plainHTTP: plainHTTP, limit: maxResponseBytes))
        else { return .transport("curl_easy_init returned NULL") }
        do {
            try transfer.configure(request, timeout: timeout)
        } catch {
            return .transport(error.text)
        }
        return transfer.perform()
    }

    private struct SetupError: Error {
        let text: String
    }

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let context: Context
    private var headerList: UnsafeMutablePointer<curl_slist>?

    private init?(context: Context) {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.context = context
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    private func configure(_ request: WebhookRequest, timeout: Duration) throws(SetupError) {
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_URL, request.url.absoluteString)
        try set(CURLOPT_PROTOCOLS_STR, context.plainHTTP ? "http" : "https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        // An environment's proxy would be the address connected to, and the receiver's address never checked.
        try set(CURLOPT_PROXY, "")
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        try set(CURLOPT_TIMEOUT_MS, Int(max(1, milliseconds)))
        // Threads other than the main one must not get SIGALRM from name resolution timeouts.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_USERAGENT, "Latch-Webhooks")
        // curl sends `Expect: 100-continue` before a body over 1 KiB and waits for a receiver that may never
        // answer it; the body goes at once instead.
        for line in request.headers.fields.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            guard let longer = curl_slist_append(headerList, line) else { throw SetupError(text: "curl_slist_append failed") }
            headerList = longer
        }
        try set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList))
        try set(CURLOPT_POSTFIELDSIZE, request.body.count)
        try check(request.body.withUnsafeBytes { bytes in
            // COPYPOSTFIELDS copies the bytes now; a non-null pointer even for an empty body.
            withUnsafeBytes(of: UInt8(0)) { empty in
                latch_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS,
                                          UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? empty.baseAddress))
            }
        }, "CURLOPT_COPYPOSTFIELDS")

        let userdata = Unmanaged.passUnretained(context).toOpaque()
        try set(CURLOPT_OPENSOCKETDATA, pointer: userdata)
        try check(latch_curl_setopt_opensocket(handle, { userdata, purpose, address in
            guard let userdata, let address, purpose == CURLSOCKTYPE_IPCXN else { return CURL_SOCKET_BAD }
            let context = Unmanaged<Context>.fromOpaque(userdata).takeUnretainedValue()
            guard let connecting = WebhookTransfer.address(of: address) else {
                context.refusal = .malformedURL("an address family other than IPv4 and IPv6")
                return CURL_SOCKET_BAD
            }
            if let refusal = context.policy.refusal(of: connecting, plainHTTP: context.plainHTTP) {
                // Refused before the socket exists: nothing, not even a SYN, reaches the address.
                context.refusal = refusal
                return CURL_SOCKET_BAD
            }
            let socket = Glibc.socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
            if socket >= 0 { _ = fcntl(socket, F_SETFD, FD_CLOEXEC) }
            return socket
        }), "CURLOPT_OPENSOCKETFUNCTION")

        try set(CURLOPT_WRITEDATA, pointer: userdata)
        try check(latch_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            let context = Unmanaged<Context>.fromOpaque(userdata).takeUnretainedValue()
            let length = size * count
            let kept = min(length, context.limit - context.body.count)
            buffer.withMemoryRebound(to: UInt8.self, capacity: length) { context.body.append($0, count: kept) }
            guard kept == length else {
                // The status is known by now; the rest of a long answer is not worth reading.
                context.truncated = true
                return 0  // curl stops the transfer with CURLE_WRITE_ERROR
            }
            return length
        }), "CURLOPT_WRITEFUNCTION")
        try set(CURLOPT_HEADERDATA, pointer: userdata)
        try check(latch_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            let context = Unmanaged<Context>.fromOpaque(userdata).takeUnretainedValue()
            let length = size * count
            let line = buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            // A status line starts a new answer (after a 100 Continue): keep only the last one's.
            if line.hasPrefix("HTTP/") {
                context.retryAfter = nil
            } else if let colon = line.firstIndex(of: ":"),
                      line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "retry-after" {
                context.retryAfter = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return length
        }), "CURLOPT_HEADERFUNCTION")
    }

    private func perform() -> Result {
        let code = curl_easy_perform(handle)
        let answered = code == CURLE_OK || (code == CURLE_WRITE_ERROR && context.truncated)
        // A name with a forbidden and an allowed address may still be delivered through the allowed one: then
        // it was delivered, and reporting the refusal would send it again.
        if !answered, let refusal = context.refusal { return .refused(refusal) }
        guard answered else {
            let detail = String(cString: errorBuffer)
            return .transport(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        var status = 0
        _ = latch_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .answered(status: status, retryAfter: context.retryAfter, body: context.body)
    }

    /// The address in curl's `curl_sockaddr`: `addr` is the start of a `sockaddr_in` or `sockaddr_in6`.
    private static func address(of address: UnsafeMutablePointer<curl_sockaddr>) -> IPAddress? {
        let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \.addr)!
        switch address.pointee.family {
        case AF_INET:
            let v4 = raw.loadUnaligned(as: sockaddr_in.self)
            return withUnsafeBytes(of: v4.sin_addr) { IPAddress(bytes: Array($0)) }
        case AF_INET6:
            let v6 = raw.loadUnaligned(as: sockaddr_in6.self)
            return withUnsafeBytes(of: v6.sin6_addr) { IPAddress(bytes: Array($0)) }
        default:
            return nil
        }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(SetupError) {
        try check(latch_curl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(SetupError) {
        try check(latch_curl_setopt_string(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(SetupError) {
        try check(latch_curl_setopt_pointer(handle, option, pointer), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ step: String) throws(SetupError) {
        guard code == CURLE_OK else { throw SetupError(text: "\(step): " + String(cString: curl_easy_strerror(code))) }
    }
}
