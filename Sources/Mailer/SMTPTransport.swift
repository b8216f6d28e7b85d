import CCurl
import CurlSupport

/// Sends mail over SMTP with libcurl: STARTTLS or implicit TLS as the endpoint says, a multipart/alternative
/// body built with curl's MIME API, connect and total timeouts. Connections stay open between mails
/// (`SMTPConnectionPool`): a sending thread reuses its session for the next mail while the server keeps it, so a
/// burst pays one connect, TLS handshake and login per thread, not per mail.
///
/// `send` blocks for the whole SMTP exchange (milliseconds against a local relay): call it from a worker thread.
/// Several threads may send at once; each uses a connection of its own.
public struct SMTPTransport: MailTransport {
    public let endpoint: SMTPEndpoint
    public let connectTimeout: Duration
    public let timeout: Duration
    /// An idle connection older than this is closed rather than reused: servers drop idle sessions (RFC 5321
    /// allows after 5 minutes), and a session found dead mid-mail costs a failed attempt.
    public static let idleConnectionLimit: Duration = .seconds(30)
    private let connections: SMTPConnectionPool

    /// SMTP connections opened since start; with reuse, far fewer than the mails sent.
    public var connectionsOpened: Int { connections.connectionsOpened }

    /// Throws if libcurl cannot be initialized, so a broken setup shows at start rather than at the first mail.
    /// - Parameter idleConnections: how many open connections to keep between mails (at least the number of
    ///   threads that send at once, so none has to connect again).
    public init(
        endpoint: SMTPEndpoint, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60),
        idleConnections: Int = 16
    ) throws(MailError) {
        do throws(CurlError) { try CurlGlobal.ready() } catch { throw MailError(error, responseCode: 0) }
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        connections = SMTPConnectionPool(capacity: max(0, idleConnections))
    }

    /// Parses `url` as an `SMTPEndpoint` (see there for the accepted forms).
    public init(
        url: String, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60), idleConnections: Int = 16
    ) throws(MailError) {
        try self.init(endpoint: SMTPEndpoint(parsing: url), connectTimeout: connectTimeout, timeout: timeout,
                      idleConnections: idleConnections)
    }

    /// Throws `MailError.smtp` with curl's error text and the server's reply code on failure.
    public func send(_ message: MailMessage) throws {
        // A handle is never used by two threads at once: each send takes one of its own from the pool.
        let request: CurlEasy
        if let idle = connections.take() {
            request = idle
        } else {
            do throws(CurlError) { request = try CurlEasy() } catch { throw MailError(error, responseCode: 0) }
        }
        do throws(CurlError) {
            try configureConnection(request)
            try request.set(CURLOPT_MAIL_FROM, message.from.envelope)
            try request.set(CURLOPT_MAIL_RCPT, list: [message.to.envelope])
            try request.set(CURLOPT_HTTPHEADER, list: message.headerLines + ["Content-Type: multipart/alternative"])
            try SMTPMIMEBody.attach(text: message.text, html: message.html, to: request)
            try request.perform()
        } catch {
            connections.recordOpened(request.connectionsOpened)
            // Not given back: after a failure the session's state is unknown, and closing it is cheap.
            throw MailError(error, responseCode: request.responseCode)
        }
        connections.recordOpened(request.connectionsOpened)
        connections.giveBack(request)
    }

    private func configureConnection(_ request: CurlEasy) throws(CurlError) {
        try request.set(CURLOPT_URL, endpoint.curlURL)
        // Only SMTP, whatever the URL says; no redirects to other protocols.
        try request.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try request.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds: connectTimeout)
        try request.set(CURLOPT_TIMEOUT_MS, milliseconds: timeout)
        try request.set(CURLOPT_MAXAGE_CONN, Int(Self.idleConnectionLimit.components.seconds))
        switch endpoint.security {
        case .startTLSRequired: try request.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
        case .startTLSOptional: try request.set(CURLOPT_USE_SSL, Int(CURLUSESSL_TRY.rawValue))
        case .none, .implicitTLS: break
        }
        if let username = endpoint.username {
            try request.set(CURLOPT_USERNAME, username)
            try request.set(CURLOPT_PASSWORD, endpoint.password ?? "")
        }
    }
}
