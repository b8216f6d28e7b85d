import Foundation

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// `host` is not a literal IPv4/IPv6 address.
    case invalidHost(String)
    /// A configuration number is out of range (names the field).
    case invalidConfiguration(String)
    /// libmicrohttpd could not start, typically because the port is in use; `errno` as seen then.
    case bindFailed(host: String, port: Int, errno: Int32)
    /// `start()` was already called on this server.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "listen host \"\(host)\" is not an IPv4 or IPv6 address"
        case .invalidConfiguration(let field):
            "invalid HTTP server setting: \(field)"
        case .bindFailed(let host, let port, let code):
            "cannot listen on \(host):\(port): \(String(cString: strerror(code)))"
        case .alreadyStarted:
            "the HTTP server was already started"
        }
    }
}
