import CurlSupport

/// Why a mail could not be built or sent. Messages never contain SMTP passwords or mail bodies.
public enum MailError: Error, Sendable, Hashable {
    /// An address is unusable (control characters, no `@`, spaces…); `field` says which (`to`, `from`, `reply-to`).
    case invalidAddress(field: String, reason: String)
    /// An extra header has an unusable or reserved name.
    case invalidHeader(name: String, reason: String)
    /// The SMTP URL cannot be used (scheme, host, options).
    case invalidSMTPURL(reason: String)
    /// libcurl could not be set up (global init, handle, MIME or list allocation).
    case transportSetup(reason: String)
    /// The SMTP exchange failed: curl's code and error text, and the server's last reply code (0 if none).
    case smtp(curlCode: Int, message: String, responseCode: Int)
    /// The dev transport could not write its file.
    case fileWrite(path: String, reason: String)
    /// The webhook endpoint mail is handed to (`LATCH_MAIL_TRANSPORT=webhook:<id>`) no longer exists.
    case webhookEndpointMissing(id: String)

    /// A stable snake_case code for logs, metrics and the outbox's `last_error`.
    public var code: String {
        switch self {
        case .invalidAddress: "mail_invalid_address"
        case .invalidHeader: "mail_invalid_header"
        case .invalidSMTPURL: "mail_invalid_smtp_url"
        case .transportSetup: "mail_transport_setup"
        case .smtp: "mail_smtp_failure"
        case .fileWrite: "mail_file_write"
        case .webhookEndpointMissing: "mail_webhook_endpoint_missing"
        }
    }

    /// True when retrying the same message cannot help (a bad address, a 5xx reply): the outbox should stop
    /// retrying it. Connection failures, timeouts and 4xx replies are transient.
    public var isPermanent: Bool {
        switch self {
        case .invalidAddress, .invalidHeader, .webhookEndpointMissing: true
        case .smtp(_, _, let reply): (500..<600).contains(reply)
        case .invalidSMTPURL, .transportSetup, .fileWrite: false
        }
    }
}

extension MailError {
    /// libcurl's failure as a send reports it: setup as `transportSetup`, anything else as `smtp` with curl's code,
    /// the step and curl's text, and `responseCode`, the server's last reply (0 if none).
    init(_ error: CurlError, responseCode: Int) {
        switch error {
        case .setup(let reason):
            self = .transportSetup(reason: reason)
        case .call(let step, let code, let message):
            self = .smtp(curlCode: code, message: "\(step): \(message)", responseCode: responseCode)
        case .transfer(let code, let message):
            self = .smtp(curlCode: code, message: "SMTP transfer: \(message)", responseCode: responseCode)
        }
    }
}

extension MailError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidAddress(let field, let reason): "invalid \(field) address: \(reason)"
        case .invalidHeader(let name, let reason): "invalid header \(name): \(reason)"
        case .invalidSMTPURL(let reason): "invalid SMTP URL: \(reason)"
        case .transportSetup(let reason): "mail transport setup failed: \(reason)"
        case .smtp(let code, let message, let reply): "SMTP send failed (curl \(code), reply \(reply)): \(message)"
        case .fileWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .webhookEndpointMissing(let id): "webhook endpoint \(id) for mail no longer exists"
        }
    }
}
