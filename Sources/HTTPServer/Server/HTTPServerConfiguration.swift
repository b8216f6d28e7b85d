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
    /// Most simultaneous connections overall; more are closed right after accept and counted in
    /// `HTTPServer.statistics` (0 = libmicrohttpd's default, about a thousand shared by the threads). Each
    /// connection is a file descriptor: see `FileDescriptorLimit`.
    public var maxConnections: Int
    /// Largest accepted request body; a bigger one gets 413 `payload_too_large`.
    public var maxBodyBytes: Int
    /// Longest accepted request target (path and query); a longer one gets 414 `uri_too_long`.
    public var maxTargetBytes: Int
    /// Largest accepted request line plus headers; more gets 431 `header_fields_too_large`. libmicrohttpd's
    /// per-connection memory is sized from it (`libraryMemoryLimit`); a request too big even for that is answered
    /// by libmicrohttpd itself, with its own HTML page (see `HTTPServer`).
    public var maxHeaderBytes: Int
    /// Time from a request's beginning (its first byte; for a connection's first request, the accept) until its
    /// headers must be in, else the connection is closed (`.zero` = no deadline). Unlike the idle timeout, it does
    /// not restart with each byte.
    public var headerTimeout: Duration
    /// Time from a request's beginning until its whole body must be in, else the connection is closed
    /// (`.zero` = no deadline).
    public var bodyTimeout: Duration
    /// Headers every answer gets unless it sets them itself (e.g. `Cache-Control: no-store` for an API whose
    /// answers hold tokens): one place for them, whatever route or error made the answer.
    public var defaultHeaders: HTTPHeaders

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        connectionTimeoutSeconds: Int = 30,
        maxConnectionsPerIP: Int = 0,
        maxConnections: Int = 0,
        maxBodyBytes: Int = 64 * 1024,
        maxTargetBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        defaultHeaders: HTTPHeaders = HTTPHeaders()
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxConnections = maxConnections
        self.maxBodyBytes = maxBodyBytes
        self.maxTargetBytes = maxTargetBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.defaultHeaders = defaultHeaders
    }

    /// The budget and deadlines as `ConnectionTracker` measures them (milliseconds).
    var connectionLimits: ConnectionTracker.Limits {
        ConnectionTracker.Limits(
            maxConnections: maxConnections, headerTimeout: Self.milliseconds(headerTimeout),
            bodyTimeout: Self.milliseconds(bodyTimeout))
    }

    /// `MHD_OPTION_CONNECTION_MEMORY_LIMIT`: the pool each connection reads its request into. It holds the request
    /// line and headers, a record per header field and the read buffer, so at twice `maxHeaderBytes` a request just
    /// over the limit still fits and gets the server's own 431 rather than libmicrohttpd's page. Never below
    /// libmicrohttpd's default of 32 KiB, the largest pool it takes from malloc (bigger ones are mapped per
    /// connection).
    var libraryMemoryLimit: Int {
        max(32 * 1024, 2 * min(maxHeaderBytes, Int.max / 2))
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
