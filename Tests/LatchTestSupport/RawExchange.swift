import Foundation

/// Sends exact bytes on a fresh loopback connection and reads until the server ends it, for tests that must tell a
/// connection the server closed from one it kept open. `HTTPTestClient.serverClosed()` cannot: its read timing out
/// counts as closed there.
public struct RawExchange: Sendable {
    /// How the connection ended on the client's side.
    public enum End: Equatable, Sendable {
        /// The server closed it (end of stream).
        case closed
        /// The server reset it, e.g. closing with unread request bytes in its buffer.
        case reset
        /// Still open when the read timed out: the server kept the connection.
        case keptOpen
    }

    /// Everything the server sent, and how the connection ended.
    public let received: [UInt8]
    public let end: End

    /// Connects to 127.0.0.1:`port`, writes `request` (whatever the server does with it) and reads until the
    /// server closes the connection or stays silent for `quiet`.
    public init(port: Int, _ request: [UInt8], quiet: Duration = .seconds(3)) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        // Microseconds too: a zero timeval would mean no timeout at all.
        var time = timeval(
            tv_sec: Int(quiet.components.seconds), tv_usec: Int(quiet.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure.connect(errno) }
        var offset = 0
        // The server may answer and close before the whole request is out; what it sent is still read below.
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                received += chunk[..<count]
                continue
            }
            let code = errno
            self.received = received
            if count == 0 {
                end = .closed
            } else if code == ECONNRESET {
                end = .reset
            } else {
                end = .keptOpen
            }
            return
        }
    }

    public init(port: Int, _ request: String, quiet: Duration = .seconds(3)) throws {
        try self.init(port: port, Array(request.utf8), quiet: quiet)
    }

    public enum Failure: Error {
        case socket(Int32)
        case connect(Int32)
        case malformed(String)
    }

    /// The responses received, in order (bodies framed by `Content-Length` only, as this server sends them).
    public func responses() throws -> [RawResponse] {
        var rest = received[...]
        var responses: [RawResponse] = []
        while !rest.isEmpty {
            let response = try RawResponse(parsing: &rest)
            responses.append(response)
        }
        return responses
    }

    /// The first response received, whatever follows it.
    public func firstResponse() throws -> RawResponse {
        var bytes = received[...]
        return try RawResponse(parsing: &bytes)
    }

    /// The one response received; throws if there were none or several.
    public func onlyResponse() throws -> RawResponse {
        let all = try responses()
        guard all.count == 1, let only = all.first else {
            throw Failure.malformed("\(all.count) responses: \(String(decoding: received, as: UTF8.self).prefix(500))")
        }
        return only
    }
}

/// One parsed response of a `RawExchange`.
public struct RawResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    public init(parsing bytes: inout ArraySlice<UInt8>) throws {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else {
            throw RawExchange.Failure.malformed(String(decoding: bytes.prefix(500), as: UTF8.self))
        }
        var lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawExchange.Failure.malformed(String(decoding: bytes[..<headEnd], as: UTF8.self))
        }
        self.status = status
        headers = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let bodyStart = headEnd + marker.count
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard bytes.endIndex - bodyStart >= length else {
            throw RawExchange.Failure.malformed("body shorter than \(length)")
        }
        body = Array(bytes[bodyStart..<(bodyStart + length)])
        bytes = bytes[(bodyStart + length)...]
    }
}
