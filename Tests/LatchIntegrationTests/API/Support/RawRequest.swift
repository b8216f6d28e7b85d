import Foundation

/// One hand-made request on a fresh loopback connection, read until the server ends the connection or stays
/// silent, so a test can tell a closed connection from a kept one. (`HTTPTestClient` frames what it sends and
/// takes a read timeout for a close; `HTTPServerTests` has the fuller `RawExchange`.)
struct RawRequest {
    /// Everything the server sent.
    let received: [UInt8]
    /// The server closed the connection (end of stream) rather than keeping it open until the read timed out.
    let closedByServer: Bool

    init(port: Int, _ request: String, quiet: Duration = .seconds(3)) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        var time = timeval(tv_sec: Int(quiet.components.seconds), tv_usec: 0)
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
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var count = recv(fd, &chunk, chunk.count, 0)
        while count > 0 {
            received += chunk[..<count]
            count = recv(fd, &chunk, chunk.count, 0)
        }
        self.received = received
        closedByServer = count == 0 || errno == ECONNRESET
    }

    enum Failure: Error {
        case socket(Int32)
        case connect(Int32)
        case malformed(String)
    }

    /// The first response's status, headers (names lowercased) and body (framed by `Content-Length`), and how
    /// many responses were received in all (counted by status lines).
    func response() throws -> (status: Int, headers: [String: String], body: Data, count: Int) {
        let text = String(decoding: received, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw Failure.malformed(String(text.prefix(300))) }
        var lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure.malformed(String(text.prefix(300)))
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        let body = Data(text[headEnd.upperBound...].utf8.prefix(length))
        return (status, headers, body, text.components(separatedBy: "HTTP/1.1 ").count - 1)
    }
}
