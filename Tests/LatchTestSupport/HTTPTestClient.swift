import Foundation

/// A tiny blocking HTTP/1.1 client over one POSIX TCP socket, for tests.
///
/// Unlike URLSession it sends exactly the bytes asked for, keeps one connection for as
/// many requests as the test wants (keep-alive), and shows every response header.
/// Not thread-safe: use one client per thread.
public final class HTTPTestClient {
    /// A parsed response.
    public struct Response: Sendable {
        public var status: Int
        /// Header fields in arrival order, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// First value of header `name`, case-insensitive.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body decoded as JSON into `T`.
        public func json<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(T.self, from: Data(body))
        }
    }

    /// Why a request failed at the transport level.
    public enum Failure: Error, Equatable {
        case invalidAddress(String)
        case connectFailed(errno: Int32)
        case sendFailed(errno: Int32)
        /// The peer closed the connection (or reset it) before a full response arrived.
        case connectionClosed
        case malformedResponse(String)
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to `host:port` (literal IPv4 address). `timeout` bounds every read and write.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10)) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw Failure.invalidAddress(host) }
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connectFailed(errno: errno) }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Foundation.close(fd)
            throw Failure.connectFailed(errno: code)
        }
        socket = fd
    }

    deinit {
        close()
    }

    /// Sends one request and reads its response. Adds `Host` and, when there is a body
    /// and no `Transfer-Encoding` header, `Content-Length`.
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        let chunked = headers.contains { $0.0.lowercased() == "transfer-encoding" }
        if !body.isEmpty, !chunked, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        // A server may answer early (413) and close while the body is still going out:
        // a failed write is not fatal as long as a response can still be read.
        try? write(Array(head.utf8) + body)
        return try readResponse(headOnly: method == "HEAD")
    }

    /// Sends one request with a JSON body.
    public func sendJSON(_ method: String, _ target: String, json: String, headers: [(String, String)] = []) throws -> Response {
        try send(method, target, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// Writes raw bytes (for hand-made requests, e.g. chunked bodies).
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure.sendFailed(errno: errno) }
            offset += sent
        }
    }

    /// Reads one response. `headOnly` for answers to HEAD, which carry no body.
    public func readResponse(headOnly: Bool = false) throws -> Response {
        let headEnd = try readUntilHeadEnd()
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure.malformedResponse(headText)
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        if !headOnly, status != 204, status != 304, status >= 200 {
            response.body = try readBody(response)
        }
        return response
    }

    /// Whether the server has closed this connection (a read sees end of stream).
    public func serverClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, 0)
        if count > 0 { buffer.append(byte) }
        return count <= 0
    }

    /// Closes the socket; later calls fail.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Foundation.close(socket)
    }

    private func readBody(_ response: Response) throws -> [UInt8] {
        if let length = response.header("Content-Length").flatMap(Int.init) {
            try fill(atLeast: length)
            defer { buffer.removeFirst(length) }
            return Array(buffer[..<length])
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            return try readChunks()
        }
        while try receive() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func readChunks() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil([13, 10])
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure.malformedResponse("chunk size \(sizeText)")
            }
            buffer.removeFirst(lineEnd + 2)
            try fill(atLeast: size + 2)
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    private func readUntilHeadEnd() throws -> Int {
        try readUntil([13, 10, 13, 10])
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count) where buffer[start..<(start + marker.count)].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try receive() else { throw Failure.connectionClosed }
        }
    }

    private func fill(atLeast count: Int) throws {
        while buffer.count < count {
            guard try receive() else { throw Failure.connectionClosed }
        }
    }

    /// Reads what is available; false at end of stream or reset.
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}
