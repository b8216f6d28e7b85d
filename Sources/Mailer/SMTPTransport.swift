import CCurl

/// Sends mail over SMTP with libcurl: one easy handle per send, STARTTLS or implicit TLS as the endpoint says,
/// a multipart/alternative body built with curl's MIME API, connect and total timeouts.
///
/// `send` blocks for the whole SMTP exchange (milliseconds against a local relay): call it from a worker thread.
public struct SMTPTransport: MailTransport {
    public let endpoint: SMTPEndpoint
    public let connectTimeout: Duration
    public let timeout: Duration

    /// Throws if libcurl cannot be initialized, so a broken setup shows at start rather than at the first mail.
    public init(
        endpoint: SMTPEndpoint, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60)
    ) throws(MailError) {
        try CurlRuntime.ready()
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// Parses `url` as an `SMTPEndpoint` (see there for the accepted forms).
    public init(url: String, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60)) throws(MailError) {
        try self.init(endpoint: SMTPEndpoint(parsing: url), connectTimeout: connectTimeout, timeout: timeout)
    }

    /// Throws `MailError.smtp` with curl's error text and the server's reply code on failure.
    public func send(_ message: MailMessage) throws {
        let request = try CurlSMTPRequest()
        try configureConnection(request)
        try request.set(CURLOPT_MAIL_FROM, message.from.envelope)
        try request.set(CURLOPT_MAIL_RCPT, list: [message.to.envelope])
        try request.set(CURLOPT_HTTPHEADER, list: message.headerLines + ["Content-Type: multipart/alternative"])
        try request.setBody(text: message.text, html: message.html)
        try request.perform()
    }

    private func configureConnection(_ request: CurlSMTPRequest) throws(MailError) {
        try request.set(CURLOPT_URL, endpoint.curlURL)
        // Only SMTP, whatever the URL says; no redirects to other protocols.
        try request.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        // Signals cannot reach the right thread in a multi-threaded daemon; curl's threaded resolver needs none.
        try request.set(CURLOPT_NOSIGNAL, 1)
        try request.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        try request.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
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

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
