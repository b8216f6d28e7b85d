import Foundation

/// Where and how to reach the SMTP server, parsed from `LATCH_SMTP_URL`:
///
/// - `smtp://host:25` plain SMTP (only sensible for a local relay or a test sink);
/// - `smtp://host:587/?starttls=required` STARTTLS, failing if the server does not offer it;
///   `?starttls=optional` upgrades when offered;
/// - `smtps://host:465` TLS from the first byte;
/// - `user:password@` enables AUTH (percent-encode `@`, `:` and `/` in either part); it is refused unless the
///   URL is `smtps://` or has `?starttls=required` (or the host is loopback), so a password never travels in clear;
/// - a path (`smtp://host/example.com`) sets the EHLO name, as in curl.
public struct SMTPEndpoint: Sendable, Hashable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Hashable {
        case none
        case startTLSOptional = "starttls_optional"
        case startTLSRequired = "starttls_required"
        case implicitTLS = "implicit_tls"
    }

    /// The URL handed to curl: scheme, host, port and path, without credentials or our options.
    public let curlURL: String
    public let security: Security
    public let username: String?
    /// Kept out of `description` and every error.
    let password: String?

    public init(parsing text: String) throws(MailError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidSMTPURL(reason: "not a URL")
        }
        guard scheme == "smtp" || scheme == "smtps" else {
            throw .invalidSMTPURL(reason: "scheme must be smtp or smtps, not \(scheme)")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidSMTPURL(reason: "no host") }
        let security = try Self.security(scheme: scheme, query: components.queryItems ?? [])
        var location = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)"
        if let port = components.port { location += ":\(port)" }
        let path = components.percentEncodedPath
        if !path.isEmpty && path != "/" { location += path }
        curlURL = location
        self.security = security
        username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        if password != nil && username == nil { throw .invalidSMTPURL(reason: "password without user name") }
        let protected = security == .implicitTLS || security == .startTLSRequired
        if username != nil && !protected && !["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) {
            throw .invalidSMTPURL(reason: "credentials need smtps:// or ?starttls=required (or a loopback host)")
        }
    }

    private static func security(scheme: String, query: [URLQueryItem]) throws(MailError) -> Security {
        var result: Security = scheme == "smtps" ? .implicitTLS : .none
        for item in query {
            guard item.name == "starttls" else { throw .invalidSMTPURL(reason: "unknown option \(item.name)") }
            guard scheme == "smtp" else { throw .invalidSMTPURL(reason: "starttls applies to smtp://, not smtps://") }
            switch item.value {
            case "required": result = .startTLSRequired
            case "optional": result = .startTLSOptional
            default: throw .invalidSMTPURL(reason: "starttls must be required or optional")
            }
        }
        return result
    }
}

extension SMTPEndpoint: CustomStringConvertible {
    /// The endpoint for logs: the password is never shown.
    public var description: String {
        let user = username.map { " as \($0)" } ?? ""
        return "\(curlURL) (\(security.rawValue))\(user)"
    }
}
