import Foundation

/// How the server listens and what it tolerates. Validated by `HTTPServer.start()`.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// A literal IPv4 or IPv6 address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `::`); no names.
    public var host: String
    /// TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// MHD threads, each with its own epoll loop; defaults to the number of cores.
    public var threadCount: Int
    /// Seconds of inactivity after which a connection is closed (0 = never).
    public var connectionTimeoutSeconds: Int
    /// Most simultaneous connections from one IP address (0 = no limit). Extra ones are closed at once.
    public var maxConnectionsPerIP: Int
    /// Most simultaneous connections overall (0 = libmicrohttpd's default).
    public var maxConnections: Int
    /// Largest accepted request body; a bigger one gets 413 `payload_too_large`.
    public var maxBodyBytes: Int

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        connectionTimeoutSeconds: Int = 30,
        maxConnectionsPerIP: Int = 0,
        maxConnections: Int = 0,
        maxBodyBytes: Int = 64 * 1024
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxConnections = maxConnections
        self.maxBodyBytes = maxBodyBytes
    }
}
