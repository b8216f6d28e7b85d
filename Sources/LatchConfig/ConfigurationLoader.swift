import Foundation

/// Reads `LatchConfiguration` from environment variables and their flag equivalents
/// (`--listen 0.0.0.0:8080` is `LATCH_LISTEN`, `--database-url` is `DATABASE_URL`; flags win).
/// Secrets may come from files instead (`DATABASE_URL_FILE`, see `fileVariables`).
/// Every problem is reported with the variable's name.
public struct ConfigurationLoader: Sendable {
    /// Every variable the project reads, with a one-line description and its default (nil: required or optional).
    public static let variables: [(name: String, help: String, defaultValue: String?)] = withFileVariables(settings)

    /// The settings; each of `fileVariables` also gets an `X_FILE` row in `variables`.
    private static let settings: [(name: String, help: String, defaultValue: String?)] = [
        ("DATABASE_URL", "PostgreSQL URL (postgresql://user:pass@host:5432/db)", nil),
        ("LATCH_DATABASE_POOLER",
         "`none`, or `transaction` behind PgBouncer in transaction mode (also set by ?pgbouncer=true on DATABASE_URL)",
         "none"),
        ("LATCH_DATABASE_LISTEN_URL",
         "a direct PostgreSQL URL used only for LISTEN (unset behind a transaction pooler: the workers poll every second)",
         nil),
        ("LATCH_SECRET_KEY", "the server secret: base64 of 32 random bytes (make one: latchctl secret generate)", nil),
        ("LATCH_LISTEN", "address the HTTP server binds", "127.0.0.1:8080"),
        ("LATCH_METRICS_LISTEN", "address of the Prometheus /metrics listener (empty: none)", "127.0.0.1:9464"),
        ("LATCH_ADMIN_LISTEN", "address of the admin API, /admin/v1 (the metrics address: one listener for both; empty: none)",
         "LATCH_METRICS_LISTEN"),
        ("LATCH_THREADS", "HTTP threads", "twice the number of cores"),
        ("LATCH_HASH_WORKERS", "password-hashing threads", "number of cores"),
        ("LATCH_DB_POOL_SIZE", "PostgreSQL connections", "threads + hash workers + outbox and webhook workers + 3"),
        ("LATCH_CONNECTION_TIMEOUT", "idle HTTP connection timeout", "30s"),
        ("LATCH_HEADER_TIMEOUT", "time from a request's first byte until its headers must be in", "10s"),
        ("LATCH_BODY_TIMEOUT", "time from a request's first byte until its body must be in", "30s"),
        ("LATCH_MAX_CONNECTIONS", "concurrent HTTP connections; more are refused at once", "10000"),
        ("LATCH_PER_IP_CONNECTIONS", "concurrent HTTP connections per client address (off with LATCH_TRUST_PROXY)", "64"),
        ("LATCH_TRUST_PROXY", "take the client address for rate limits and audit from X-Forwarded-For", "false"),
        ("LATCH_MIGRATIONS_DIR", "directory of NNNN_*.sql migrations", "sql"),
        ("LATCH_MAIL_TRANSPORT", "`smtp`, `files` or `webhook:<endpoint id>` (default: smtp if LATCH_SMTP_URL is set, else files)", nil),
        ("LATCH_SMTP_URL", "SMTP server (smtp://, smtps://, user:pass@, ?starttls=required)", nil),
        ("LATCH_MAIL_DIR", "development: write mail as .eml files here instead of SMTP", nil),
        ("LATCH_MAIL_FROM", "sender address", "no-reply@localhost"),
        ("LATCH_PRODUCT_NAME", "product name in mails and pages", "Latch"),
        ("LATCH_TEMPLATES_DIR", "the operator's mail templates, <locale>/<kind>.subject, .txt and .html, each file over the shipped one (latchctl mail kinds)", nil),
        ("LATCH_DEFAULT_LOCALE", "language of mail to users with none of the template languages", "en"),
        ("LATCH_MFA_ISSUER", "the issuer shown in authenticator apps", "Latch"),
        ("LATCH_LINK_BASE", "https base of the universal links in mails", "http://127.0.0.1:8080"),
        ("LATCH_APP_SCHEME", "the app's custom URL scheme", "myapp"),
        ("LATCH_APP_IDS", "Apple app IDs, comma-separated (TEAMID.bundle.id)", ""),
        ("LATCH_ANDROID_PACKAGE", "Android package name for assetlinks.json", nil),
        ("LATCH_ANDROID_CERT_FINGERPRINTS", "SHA-256 signing-certificate fingerprints, comma-separated", ""),
        ("LATCH_PASSKEY_RP_ID", "the RP ID passkeys are bound to (the host of LATCH_LINK_BASE when unset); never change it once users have passkeys", nil),
        ("LATCH_PASSKEY_ORIGINS", "extra web origins (https://app.example.com) allowed to use passkeys, comma-separated", ""),
        ("LATCH_APPLE_CLIENT_IDS", "Sign in with Apple: the app's bundle id and Services ids, comma-separated (unset: off)", nil),
        ("LATCH_APPLE_ISSUERS", "Sign in with Apple: accepted iss values, comma-separated", "https://appleid.apple.com"),
        ("LATCH_APPLE_JWKS_URL", "Sign in with Apple: Apple's keys", "https://appleid.apple.com/auth/keys"),
        ("LATCH_APPLE_TEAM_ID", "Sign in with Apple: team id, to revoke users' Apple tokens on deletion", nil),
        ("LATCH_APPLE_KEY_ID", "Sign in with Apple: the id of the key in LATCH_APPLE_PRIVATE_KEY_FILE", nil),
        ("LATCH_APPLE_PRIVATE_KEY_FILE", "Sign in with Apple: the .p8 key that signs client secrets", nil),
        ("LATCH_APPLE_TOKEN_URL", "Sign in with Apple: token endpoint (exchanges sign-ins' codes)", "https://appleid.apple.com/auth/token"),
        ("LATCH_APPLE_REVOKE_URL", "Sign in with Apple: revocation endpoint", "https://appleid.apple.com/auth/revoke"),
        ("LATCH_CONFIRM_TTL", "lifetime of an email-confirmation link", "24h"),
        ("LATCH_RESET_TTL", "lifetime of a password-reset link", "1h"),
        ("LATCH_SIGNIN_TTL", "lifetime of a sign-in-by-mail link and code", "15m"),
        ("LATCH_INVITE_TTL", "lifetime of an invitation's link and code (latchctl users invite)", "7d"),
        ("LATCH_EMAIL_SIGNIN", "offer sign-in by mail (POST /v1/signin/email); false: its routes do not exist", "true"),
        ("LATCH_PRIVILEGED_MAX_AGE",
         "how long a re-authentication lets a session change password or address or delete the account", "10m"),
        ("LATCH_ACCESS_TTL", "lifetime of an access token", "15m"),
        ("LATCH_REFRESH_TTL", "lifetime of a refresh token", "30d"),
        ("LATCH_SESSION_MAX_AGE", "absolute lifetime of a session: refreshing cannot extend it", "90d"),
        ("LATCH_ISSUER", "iss of the access tokens and the OpenID issuer: latchd's public URL (default: the link base)",
         nil),
        ("LATCH_AUDIENCE", "aud of the access tokens: what other services check", "latch"),
        ("LATCH_JWKS_MAX_AGE", "how long verifiers may cache the JWKS; a rotated key signs only after it", "10m"),
        ("LATCH_ARGON2_MEMORY_KIB", "Argon2id memory", "19456"),
        ("LATCH_ARGON2_ITERATIONS", "Argon2id iterations", "2"),
        ("LATCH_ARGON2_PARALLELISM", "Argon2id lanes", "1"),
        ("LATCH_RATE_SIGNIN_IP", "sign-ins per client address", "30/1m"),
        ("LATCH_RATE_SIGNIN_EMAIL", "sign-ins per email", "10/15m"),
        ("LATCH_RATE_SIGNUP_IP", "sign-ups per client address", "10/1h"),
        ("LATCH_RATE_SIGNUP_EMAIL", "sign-ups per email", "3/1h"),
        ("LATCH_RATE_RESEND_IP", "confirmation resends per client address", "10/1h"),
        ("LATCH_RATE_RESEND_EMAIL", "confirmation resends per email", "3/1h"),
        ("LATCH_RATE_FORGOT_IP", "password-reset requests per client address", "10/1h"),
        ("LATCH_RATE_FORGOT_EMAIL", "password-reset requests per email", "3/1h"),
        ("LATCH_RATE_CODE_IP", "typed codes (confirm, reset) per client address", "30/1h"),
        ("LATCH_RATE_CODE_EMAIL", "typed codes (confirm, reset) per email", "10/1h"),
        ("LATCH_RATE_ADMIN_KEY_IP", "refused admin API keys per client address", "20/5m"),
        ("LATCH_LOCKOUT_THRESHOLD", "failed sign-ins for one email before backoff", "5"),
        ("LATCH_LOCKOUT_BASE", "first backoff after the threshold (doubles each failure)", "30s"),
        ("LATCH_LOCKOUT_CAP", "longest backoff", "15m"),
        ("LATCH_OUTBOX_WORKERS", "mail-sending threads, each with its own SMTP connection kept open between mails", "4"),
        ("LATCH_OUTBOX_MAX_ATTEMPTS", "send attempts before a mail is marked failed", "8"),
        ("LATCH_OUTBOX_BACKOFF_BASE", "first retry delay (doubles each attempt)", "30s"),
        ("LATCH_OUTBOX_BACKOFF_CAP", "longest retry delay", "1h"),
        ("LATCH_OUTBOX_POLL", "outbox poll interval when no notification arrives", "5s"),
        ("LATCH_OUTBOX_LEASE", "how long a claimed mail is held before another worker may take it (after a crash)", "2m"),
        ("LATCH_WEBHOOK_WORKERS", "webhook-delivery threads (0: no deliveries)", "1"),
        ("LATCH_WEBHOOKS_ALLOW_HTTP", "`loopback`: deliver over http:// to loopback hosts (development and tests)", ""),
        ("LATCH_WEBHOOKS_ALLOW_NETWORKS", "comma-separated CIDRs webhooks may reach besides the public internet", ""),
        ("LATCH_WEBHOOK_LEASE", "how long a claimed webhook is held before another worker may take it (after a crash); short: a slow receiver may get an attempt twice, same webhook-id", "60s"),
        ("LATCH_DEFERRED_MAIL_INTERVAL", "how often mail asked for by address (forgot, resend, sign-in by mail) is resolved", "1s"),
        ("LATCH_RETENTION", "how long expired tokens, ended sessions and sent mail are kept", "30d"),
        ("LATCH_UNCONFIRMED_TTL", "how long an account may stay unconfirmed before the purge deletes it", "7d"),
        ("LATCH_PURGE_INTERVAL", "how often latchd runs the purge (as `latchctl tokens purge`); off: never", "1h"),
    ]

    private let values: [String: String]

    /// - Parameters:
    ///   - environment: usually `ProcessInfo.processInfo.environment`.
    ///   - arguments: flags after the program name (`--listen 0.0.0.0:8080` or `--listen=…`).
    public init(environment: [String: String], arguments: [String] = []) throws(ConfigurationError) {
        var values = environment
        var flags = Set<String>()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else {
                throw ConfigurationError(variable: argument, problem: "unexpected argument")
            }
            var flag = String(argument.dropFirst(2))
            var value: String
            if let equals = flag.firstIndex(of: "=") {
                value = String(flag[flag.index(after: equals)...])
                flag = String(flag[..<equals])
            } else {
                index += 1
                guard index < arguments.count else {
                    throw ConfigurationError(variable: argument, problem: "needs a value")
                }
                value = arguments[index]
            }
            let name = Self.variableName(forFlag: flag)
            guard Self.variables.contains(where: { $0.name == name }) else {
                throw ConfigurationError(variable: argument, problem: "unknown flag")
            }
            values[name] = value
            flags.insert(name)
            index += 1
        }
        Self.dropEnvironmentCounterparts(of: flags, in: &values)
        self.values = try Self.resolvingFiles(values)
    }

    /// `database-url` -> `DATABASE_URL`, `database-url-file` -> `DATABASE_URL_FILE`, `listen` -> `LATCH_LISTEN`.
    public static func variableName(forFlag flag: String) -> String {
        let upper = flag.uppercased().replacingOccurrences(of: "-", with: "_")
        return upper == "DATABASE_URL" || upper == fileVariable(for: "DATABASE_URL") ? upper : "LATCH_" + upper
    }

    /// `DATABASE_URL_FILE` -> `database-url-file`, `LATCH_LISTEN` -> `listen`: the inverse of `variableName(forFlag:)`.
    public static func flagName(forVariable name: String) -> String {
        let bare = name.hasPrefix("LATCH_") ? String(name.dropFirst("LATCH_".count)) : name
        return bare.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// Whether a variable is set to the empty string (or blanks), which `raw` reports as unset: for settings where
    /// empty means "off" rather than "default".
    public func isSetToEmpty(_ name: String) -> Bool {
        values[name] != nil && raw(name) == nil
    }

    /// The raw value of a variable, empty strings counting as unset.
    public func raw(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}
