import CCurl
import CurlSupport

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
        do throws(CurlError) { try CurlGlobal.ready() } catch { throw MailError(error, responseCode: 0) }
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
        // One handle per send: easy handles must not be shared across threads.
        let request: CurlEasy
        do throws(CurlError) { request = try CurlEasy() } catch { throw MailError(error, responseCode: 0) }
        do throws(CurlError) {
            try configureConnection(request)
            try request.set(CURLOPT_MAIL_FROM, message.from.envelope)
            try request.set(CURLOPT_MAIL_RCPT, list: [message.to.envelope])
            try request.set(CURLOPT_HTTPHEADER, list: message.headerLines + ["Content-Type: multipart/alternative"])
            try SMTPMIMEBody.attach(text: message.text, html: message.html, to: request)
            try request.perform()
        } catch {
            throw MailError(error, responseCode: request.responseCode)
        }
    }

    private func configureConnection(_ request: CurlEasy) throws(CurlError) {
        try request.set(CURLOPT_URL, endpoint.curlURL)
        // Only SMTP, whatever the URL says; no redirects to other protocols.
        try request.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try request.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds: connectTimeout)
        try request.set(CURLOPT_TIMEOUT_MS, milliseconds: timeout)
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
