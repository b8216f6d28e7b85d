import CCurl
import CurlSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One POST on a handle of its own under the target policy: no redirects, a total timeout, the answer read up to
/// the cap, and every address checked as curl is about to connect to it.
enum WebhookTransfer {
    enum Result {
        case answered(status: Int, retryAfter: String?, body: Data)
        case transport(String)
        case refused(WebhookRefusal)
    }

    /// What the open-socket callback reads and writes; reached through its `userdata` pointer.
    final class SocketGate {
        let policy: WebhookTargetPolicy
        let plainHTTP: Bool
        var refusal: WebhookRefusal?

        init(policy: WebhookTargetPolicy, plainHTTP: Bool) {
            self.policy = policy
            self.plainHTTP = plainHTTP
        }
    }

    static func run(_ request: WebhookRequest, policy: WebhookTargetPolicy, plainHTTP: Bool, timeout: Duration,
                    maxResponseBytes: Int) -> Result {
        let gate = SocketGate(policy: policy, plainHTTP: plainHTTP)
        let answer: CurlResponse
        do throws(CurlError) {
            let transfer = try CurlEasy()
            try configure(transfer, request, gate: gate, timeout: timeout)
            // A longer answer is cut at the cap: the status is known by then, the rest is not worth reading.
            try transfer.captureResponse(maxBodyBytes: maxResponseBytes)
            answer = try transfer.perform()
        } catch {
            // A name with a forbidden and an allowed address may still be delivered through the allowed one: then
            // it was delivered, and reporting the refusal would send it again. So a refusal counts only here.
            if let refusal = gate.refusal { return .refused(refusal) }
            return .transport(error.description)
        }
        return .answered(status: answer.status, retryAfter: answer.headers["retry-after"], body: answer.body)
    }

    private static func configure(_ transfer: CurlEasy, _ request: WebhookRequest, gate: SocketGate,
                                  timeout: Duration) throws(CurlError) {
        try transfer.set(CURLOPT_URL, request.url.absoluteString)
        try transfer.set(CURLOPT_PROTOCOLS_STR, gate.plainHTTP ? "http" : "https")
        try transfer.set(CURLOPT_FOLLOWLOCATION, 0)
        // An environment's proxy would be the address connected to, and the receiver's address never checked.
        try transfer.set(CURLOPT_PROXY, "")
        try transfer.set(CURLOPT_TIMEOUT_MS, milliseconds: timeout)
        try transfer.set(CURLOPT_USERAGENT, "Latch-Webhooks")
        // curl sends `Expect: 100-continue` before a body over 1 KiB and waits for a receiver that may never
        // answer it; the body goes at once instead.
        let headerLines = request.headers.fields.map { "\($0.name): \($0.value)" }
        try transfer.set(CURLOPT_HTTPHEADER, list: headerLines + ["Expect:"])
        try transfer.setPostBody(request.body)
        try transfer.setOpenSocketFunction({ userdata, purpose, address in
            guard let userdata, let address, purpose == CURLSOCKTYPE_IPCXN else { return CURL_SOCKET_BAD }
            let gate = Unmanaged<SocketGate>.fromOpaque(userdata).takeUnretainedValue()
            guard let connecting = WebhookTransfer.address(of: address) else {
                gate.refusal = .malformedURL("an address family other than IPv4 and IPv6")
                return CURL_SOCKET_BAD
            }
            if let refusal = gate.policy.refusal(of: connecting, plainHTTP: gate.plainHTTP) {
                // Refused before the socket exists: nothing, not even a SYN, reaches the address.
                gate.refusal = refusal
                return CURL_SOCKET_BAD
            }
            let socket = Glibc.socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
            if socket >= 0 { _ = fcntl(socket, F_SETFD, FD_CLOEXEC) }
            return socket
        }, context: gate)
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
}
