import Foundation

/// What a transfer received. Headers and body are collected only on a handle that `captureResponse` was called on.
public struct CurlResponse: Sendable, Equatable {
    /// The last response code (an HTTP status, an SMTP reply); 0 if none came.
    public var status: Int
    /// The final answer's headers (after a redirect or a `100 Continue` only the last answer's), names lowercased,
    /// the last value of a repeated name.
    public var headers: [String: String]
    /// The body, at most the cap.
    public var body: Data
    /// The answer was longer than the cap: `body` holds its first bytes and curl stopped reading.
    public var truncated: Bool

    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), truncated: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.truncated = truncated
    }
}

/// Where curl's write and header callbacks put what arrives, reached through their `userdata` pointer. Used on the
/// transfer's thread only.
final class ResponseCapture {
    let maxBodyBytes: Int
    private(set) var headers: [String: String] = [:]
    private(set) var body = Data()
    private(set) var truncated = false

    init(maxBodyBytes: Int) {
        precondition(maxBodyBytes >= 0, "a body cap cannot be negative")
        self.maxBodyBytes = maxBodyBytes
    }

    /// Keeps what fits under the cap; false once the cap is passed, so that curl stops reading the rest.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let kept = min(bytes.count, maxBodyBytes - body.count)
        body.append(contentsOf: bytes.prefix(kept))
        if kept < bytes.count { truncated = true }
        return !truncated
    }

    /// One header line as curl hands it over, CRLF included.
    func receiveHeader(_ line: String) {
        // A status line starts a new answer (after a redirect or a 100 Continue): keep only the last one's headers.
        if line.hasPrefix("HTTP/") {
            headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
