import AuthCore
import DeepLinkRouting
import Foundation

extension ConfigurationLoader {
    /// Parses and validates every setting.
    public func load(cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws(ConfigurationError) -> LatchConfiguration {
        // Twice the cores: an MHD thread blocks for each database round trip (~0.1 ms), so with one thread per core
        // the cores idle while queries are in flight (bench: GET /v1/me doubled from 2 to 4 threads on 2 cores).
        let threads = try integer("LATCH_THREADS", default: max(2 * cores, 1), range: 1...256)
        let hashWorkers = try integer("LATCH_HASH_WORKERS", default: max(cores, 1), range: 1...256)
        let outbox = LatchConfiguration.Outbox(
            workers: try integer("LATCH_OUTBOX_WORKERS", range: 0...64),
            maxAttempts: try integer("LATCH_OUTBOX_MAX_ATTEMPTS", range: 1...100),
            backoffBase: try duration("LATCH_OUTBOX_BACKOFF_BASE"),
            backoffCap: try duration("LATCH_OUTBOX_BACKOFF_CAP"),
            pollInterval: try duration("LATCH_OUTBOX_POLL"),
            lease: try duration("LATCH_OUTBOX_LEASE"),
            deferredMailInterval: try duration("LATCH_DEFERRED_MAIL_INTERVAL")
        )
        let webhooks = try webhooks()
        let listen = try listenAddress("LATCH_LISTEN")
        let metricsListen = try metricsListenAddress(apart: listen)
        let database = try databaseSettings()
        let configuration = LatchConfiguration(
            databaseURL: database.url,
            serverSecret: try serverSecret(),
            listen: listen,
            metricsListen: metricsListen,
            adminListen: try adminListenAddress(apart: listen, metrics: metricsListen),
            threads: threads,
            hashWorkers: hashWorkers,
            databasePoolSize: try integer(
                "LATCH_DB_POOL_SIZE", default: threads + hashWorkers + outbox.workers + webhooks.workers + 3,
                range: 1...1000),
            connectionTimeout: try duration("LATCH_CONNECTION_TIMEOUT"),
            requestDeadlines: try requestDeadlines(),
            maxConnections: try integer("LATCH_MAX_CONNECTIONS", range: 1...1_000_000),
            perIPConnectionLimit: try integer("LATCH_PER_IP_CONNECTIONS", range: 1...100_000),
            trustProxy: try boolean("LATCH_TRUST_PROXY"),
            migrationsDirectory: raw("LATCH_MIGRATIONS_DIR") ?? "sql",
            mailTransport: try mailTransport(),
            mailFrom: try mailFrom(),
            productName: try productName(),
            templatesDirectory: raw("LATCH_TEMPLATES_DIR"),
            defaultLocale: try defaultLocale(),
            appleAppIDs: list("LATCH_APP_IDS"),
            androidPackage: raw("LATCH_ANDROID_PACKAGE"),
            androidCertFingerprints: list("LATCH_ANDROID_CERT_FINGERPRINTS"),
            auth: try authConfiguration(),
            argon2: .init(
                memoryKiB: try integer("LATCH_ARGON2_MEMORY_KIB", range: 8...4_194_304),
                iterations: try integer("LATCH_ARGON2_ITERATIONS", range: 1...100),
                parallelism: try integer("LATCH_ARGON2_PARALLELISM", range: 1...64)
            ),
            outbox: outbox,
            retention: try duration("LATCH_RETENTION"),
            unconfirmedTTL: try duration("LATCH_UNCONFIRMED_TTL"),
            purgeInterval: try valueOrDefault("LATCH_PURGE_INTERVAL").lowercased() == "off"
                ? nil : try duration("LATCH_PURGE_INTERVAL")
        )
        try checkUnconfirmedTTL(of: configuration)
        var withApple = configuration
        withApple.databasePooler = database.pooler
        withApple.databaseListenURL = database.listenURL
        withApple.webhooks = webhooks
        withApple.appleClientSecret = try appleClientSecret()
        if let apple = try appleProvider(revokes: withApple.appleClientSecret != nil) {
            withApple.auth.identityProviders[apple.name] = apple
        }
        return withApple
    }

    private func webhooks() throws(ConfigurationError) -> LatchConfiguration.Webhooks {
        let http = try valueOrDefault("LATCH_WEBHOOKS_ALLOW_HTTP").lowercased()
        guard http.isEmpty || http == "loopback" else {
            throw ConfigurationError(variable: "LATCH_WEBHOOKS_ALLOW_HTTP", problem: "must be empty or loopback")
        }
        return LatchConfiguration.Webhooks(
            workers: try integer("LATCH_WEBHOOK_WORKERS", range: 0...64), allowsLoopbackHTTP: http == "loopback",
            allowedNetworks: try valueOrDefault("LATCH_WEBHOOKS_ALLOW_NETWORKS"), lease: try webhookLease())
    }

    /// At least a second: a lease shorter than one claim-and-post round trip would hand every delivery to the next
    /// claimer before it was posted. At most an hour: beyond that a crashed daemon's deliveries wait longer than
    /// the retry schedule's early steps, for no gain.
    private func webhookLease() throws(ConfigurationError) -> TimeInterval {
        let name = "LATCH_WEBHOOK_LEASE"
        guard let seconds = DurationParser.seconds(try valueOrDefault(name)), (1...3600).contains(seconds) else {
            throw ConfigurationError(variable: name, problem: "must be a duration from 1s to 1h, such as 60s or 5m")
        }
        return seconds
    }

    /// A wait shorter than a confirmation link's lifetime would let the purge delete an account whose first link
    /// still works, and the person who follows it would find no account.
    private func checkUnconfirmedTTL(of configuration: LatchConfiguration) throws(ConfigurationError) {
        let confirmTTL = configuration.auth.confirmTokenTTL
        guard configuration.unconfirmedTTL >= confirmTTL else {
            throw ConfigurationError(
                variable: "LATCH_UNCONFIRMED_TTL",
                problem: "must not be shorter than LATCH_CONFIRM_TTL (\(DurationParser.format(confirmTTL)))")
        }
    }

    private func authConfiguration() throws(ConfigurationError) -> AuthConfiguration {
        let lockout = LockoutPolicy()
        let deepLinks = DeepLinkConfiguration(appScheme: try appScheme(), linkBase: try linkBase())
        do {
            try deepLinks.validate()
        } catch {
            throw ConfigurationError(variable: "LATCH_LINK_BASE", problem: "is not usable for deep links (\(error))")
        }
        var auth = AuthConfiguration(
            confirmTokenTTL: try duration("LATCH_CONFIRM_TTL"),
            resetTokenTTL: try duration("LATCH_RESET_TTL"),
            accessTokenTTL: try duration("LATCH_ACCESS_TTL"),
            refreshTokenTTL: try duration("LATCH_REFRESH_TTL"),
            sessionMaxAge: try duration("LATCH_SESSION_MAX_AGE"),
            rateLimits: AuthRateLimits(
                signInPerIP: try rate("LATCH_RATE_SIGNIN_IP"),
                signInPerEmail: try rate("LATCH_RATE_SIGNIN_EMAIL"),
                signUpPerIP: try rate("LATCH_RATE_SIGNUP_IP"),
                signUpPerEmail: try rate("LATCH_RATE_SIGNUP_EMAIL"),
                resendPerIP: try rate("LATCH_RATE_RESEND_IP"),
                resendPerEmail: try rate("LATCH_RATE_RESEND_EMAIL"),
                forgotPerIP: try rate("LATCH_RATE_FORGOT_IP"),
                forgotPerEmail: try rate("LATCH_RATE_FORGOT_EMAIL"),
                codePerIP: try rate("LATCH_RATE_CODE_IP"),
                codePerEmail: try rate("LATCH_RATE_CODE_EMAIL"),
                adminKeyPerIP: try rate("LATCH_RATE_ADMIN_KEY_IP")
            ),
            lockout: LockoutPolicy(
                threshold: try integer("LATCH_LOCKOUT_THRESHOLD", range: 1...1000),
                base: try duration("LATCH_LOCKOUT_BASE"),
                cap: try duration("LATCH_LOCKOUT_CAP"),
                forgetAfter: lockout.forgetAfter
            ),
            signInTokenTTL: try duration("LATCH_SIGNIN_TTL"),
            emailSignIn: try boolean("LATCH_EMAIL_SIGNIN"),
            privilegedMaxAge: try duration("LATCH_PRIVILEGED_MAX_AGE"),
            mfaIssuer: try mfaIssuer(),
            deepLinks: deepLinks,
            accessTokens: try accessTokens(linkBase: deepLinks.linkBase),
            passkeys: try passkeys(linkBase: deepLinks.linkBase)
        )
        auth.inviteTokenTTL = try duration("LATCH_INVITE_TTL")
        if let problem = auth.problems.first {
            throw ConfigurationError(variable: "LATCH_*_TTL / LATCH_SESSION_MAX_AGE / LATCH_LOCKOUT_*", problem: problem)
        }
        return auth
    }

    /// The relying party of passkeys: the RP ID (a host name), the name authenticators show, and the origins a
    /// ceremony may come from: the RP ID's https origin, each signing certificate of the Android app (Credential
    /// Manager's `android:apk-key-hash:` origin, from the same fingerprints assetlinks.json publishes), and extra web
    /// origins.
    private func passkeys(linkBase: URL) throws(ConfigurationError) -> PasskeyConfiguration {
        let rpID = (raw("LATCH_PASSKEY_RP_ID") ?? linkBase.host ?? "").lowercased()
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-.")
        guard !rpID.isEmpty, rpID.count <= 253, rpID.allSatisfy(hostCharacters.contains), !rpID.hasPrefix("."),
              !rpID.hasSuffix("."), !rpID.contains("..")
        else {
            throw ConfigurationError(variable: "LATCH_PASSKEY_RP_ID", problem: "must be a host name, e.g. example.com")
        }
        var origins: Set<String> = ["https://\(rpID)"]
        if raw("LATCH_ANDROID_PACKAGE") != nil {
            for fingerprint in list("LATCH_ANDROID_CERT_FINGERPRINTS") {
                guard let origin = PasskeyConfiguration.androidOrigin(certificateFingerprint: fingerprint) else {
                    throw ConfigurationError(
                        variable: "LATCH_ANDROID_CERT_FINGERPRINTS",
                        problem: "must be SHA-256 fingerprints as keytool prints them (32 hex bytes separated by colons)")
                }
                origins.insert(origin)
            }
        }
        for origin in list("LATCH_PASSKEY_ORIGINS") {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                  url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ConfigurationError(
                    variable: "LATCH_PASSKEY_ORIGINS",
                    problem: "must be origins without path, comma-separated, e.g. https://app.example.com")
            }
            origins.insert(origin)
        }
        return PasskeyConfiguration(rpID: rpID, rpName: try productName(), origins: origins)
    }

    /// Sign in with Apple, when `LATCH_APPLE_CLIENT_IDS` is set: the provider as data (ARCHITECTURE.md, "Sign in
    /// with a provider"); it revokes tokens when the client-secret key is configured.
    private func appleProvider(revokes: Bool) throws(ConfigurationError) -> IdentityProvider? {
        let clientIDs = list("LATCH_APPLE_CLIENT_IDS")
        guard !clientIDs.isEmpty else { return nil }
        let issuers = list("LATCH_APPLE_ISSUERS").isEmpty ? ["https://appleid.apple.com"] : list("LATCH_APPLE_ISSUERS")
        let revocation = revokes ? ProviderTokenRevocation(tokenURL: try providerURL("LATCH_APPLE_TOKEN_URL"),
                                                           revokeURL: try providerURL("LATCH_APPLE_REVOKE_URL")) : nil
        return .apple(audiences: clientIDs, issuers: issuers, jwksURL: try providerURL("LATCH_APPLE_JWKS_URL"),
                      tokenRevocation: revocation)
    }

    /// The three settings of Apple's client-secret key come together or not at all; the key file is read now, so a
    /// missing or unreadable file stops latchd at start rather than failing the first revocation.
    private func appleClientSecret() throws(ConfigurationError) -> LatchConfiguration.AppleClientSecretKey? {
        let names = ["LATCH_APPLE_TEAM_ID", "LATCH_APPLE_KEY_ID", "LATCH_APPLE_PRIVATE_KEY_FILE"]
        let values = names.map(raw)
        if values.allSatisfy({ $0 == nil }) { return nil }
        guard let teamID = values[0], let keyID = values[1], let path = values[2] else {
            throw ConfigurationError(variable: names[values.firstIndex { $0 == nil } ?? 0],
                                     problem: "must be set with the other two of \(names.joined(separator: ", "))")
        }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8), pem.contains("-----BEGIN PRIVATE KEY-----")
        else {
            throw ConfigurationError(variable: "LATCH_APPLE_PRIVATE_KEY_FILE",
                                     problem: "must name a readable .p8 file (a PEM PRIVATE KEY)")
        }
        return LatchConfiguration.AppleClientSecretKey(teamID: teamID, keyID: keyID, privateKeyPEM: pem)
    }

    /// A provider endpoint: https, or http only on a loopback host (a local stand-in for development and tests;
    /// never plain text across a network).
    private func providerURL(_ name: String) throws(ConfigurationError) -> URL {
        let text = try valueOrDefault(name)
        guard let url = URL(string: text), let host = url.host, url.query == nil, url.fragment == nil,
              url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
        else {
            throw ConfigurationError(variable: name, problem: "must be an https URL (http only on a loopback host)")
        }
        return url
    }

    /// The otpauth URI's issuer: its label is `issuer:account`, so the issuer holds no colon.
    private func mfaIssuer() throws(ConfigurationError) -> String {
        let issuer = try valueOrDefault("LATCH_MFA_ISSUER")
        guard (1...64).contains(issuer.count), !issuer.contains(":"),
              !issuer.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ConfigurationError(variable: "LATCH_MFA_ISSUER", problem: "must be 1 to 64 characters, no colon or control characters")
        }
        return issuer
    }

    /// The issuer defaults to the link base (latchd's public origin). It must be an http(s) URL: OpenID discovery
    /// finds `/.well-known/openid-configuration` under it.
    private func accessTokens(linkBase: URL) throws(ConfigurationError) -> AccessTokenConfiguration {
        let base = linkBase.absoluteString
        var issuer = raw("LATCH_ISSUER") ?? base
        if issuer.hasSuffix("/") { issuer.removeLast() }
        guard let url = URL(string: issuer), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
              url.query == nil, url.fragment == nil else {
            throw ConfigurationError(
                variable: "LATCH_ISSUER", problem: "must be an http(s) URL without query, e.g. https://auth.example.com")
        }
        let audience = try valueOrDefault("LATCH_AUDIENCE")
        guard audience.count <= 200, !audience.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ConfigurationError(variable: "LATCH_AUDIENCE", problem: "must be at most 200 characters, no control characters")
        }
        let maxAge = try duration("LATCH_JWKS_MAX_AGE")
        guard maxAge >= 1, maxAge <= 86_400 else {
            throw ConfigurationError(variable: "LATCH_JWKS_MAX_AGE", problem: "must be from 1s to 24h")
        }
        return AccessTokenConfiguration(issuer: issuer, audience: audience, jwksMaxAge: maxAge)
    }

    /// Required: codes and signing keys are protected by it, and a default would be a secret everyone knows.
    private func serverSecret() throws(ConfigurationError) -> ServerSecret {
        guard let text = raw("LATCH_SECRET_KEY") else {
            throw ConfigurationError(
                variable: "LATCH_SECRET_KEY",
                problem: "is required (or LATCH_SECRET_KEY_FILE): base64 of 32 random bytes; make one with "
                    + "`latchctl secret generate`")
        }
        do {
            return try ServerSecret(base64: text)
        } catch {
            throw ConfigurationError(variable: "LATCH_SECRET_KEY", problem: "\(error); make one with `latchctl secret generate`")
        }
    }

    /// The body's deadline counts from the same first byte as the headers', so it cannot be the shorter one.
    private func requestDeadlines() throws(ConfigurationError) -> LatchConfiguration.RequestDeadlines {
        let deadlines = LatchConfiguration.RequestDeadlines(
            headers: try duration("LATCH_HEADER_TIMEOUT"), body: try duration("LATCH_BODY_TIMEOUT"))
        guard deadlines.body >= deadlines.headers else {
            throw ConfigurationError(variable: "LATCH_BODY_TIMEOUT", problem: "must not be shorter than LATCH_HEADER_TIMEOUT")
        }
        return deadlines
    }

    /// On by default, on loopback: a scraper on the same host (or a sidecar) reaches it, nobody else does.
    private func metricsListenAddress(
        apart api: LatchConfiguration.ListenAddress
    ) throws(ConfigurationError) -> LatchConfiguration.ListenAddress? {
        let name = "LATCH_METRICS_LISTEN"
        guard !isSetToEmpty(name) else { return nil }
        let address = try listenAddress(name)
        if address == api && address.port != 0 {
            throw ConfigurationError(variable: name, problem: "must differ from LATCH_LISTEN (\(api))")
        }
        return address
    }

    /// Unset: the metrics listener's (a private address already, so the admin API needs no second port open);
    /// set to empty: none.
    private func adminListenAddress(
        apart api: LatchConfiguration.ListenAddress, metrics: LatchConfiguration.ListenAddress?
    ) throws(ConfigurationError) -> LatchConfiguration.ListenAddress? {
        let name = "LATCH_ADMIN_LISTEN"
        guard !isSetToEmpty(name) else { return nil }
        guard raw(name) != nil else { return metrics }
        let address = try listenAddress(name)
        if address == api && address.port != 0 {
            throw ConfigurationError(variable: name, problem: "must differ from LATCH_LISTEN (\(api))")
        }
        return address
    }

    private func listenAddress(_ name: String) throws(ConfigurationError) -> LatchConfiguration.ListenAddress {
        let text = try valueOrDefault(name)
        let problem = ConfigurationError(variable: name, problem: "must be HOST:PORT, e.g. 0.0.0.0:8080 or [::]:8080")
        var host: Substring
        var portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw problem }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw problem }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = UInt16(portText) else { throw problem }
        return .init(host: String(host), port: port)
    }

    /// `LATCH_MAIL_TRANSPORT` when set (`smtp`, `files` or `webhook:<endpoint id>`), else SMTP when
    /// `LATCH_SMTP_URL` is set, else files when `LATCH_MAIL_DIR` is. Whether the webhook endpoint exists is
    /// checked by latchd against the database at start.
    private func mailTransport() throws(ConfigurationError) -> LatchConfiguration.MailTransportSetting {
        let name = "LATCH_MAIL_TRANSPORT"
        guard let choice = raw(name) else {
            if raw("LATCH_SMTP_URL") != nil { return try smtpTransport() }
            if let directory = raw("LATCH_MAIL_DIR") { return .files(directory: directory) }
            throw ConfigurationError(
                variable: "LATCH_SMTP_URL",
                problem: "is required (or LATCH_MAIL_DIR to write mail to files in development)")
        }
        if choice.hasPrefix("webhook:") {
            guard let id = UUID(uuidString: String(choice.dropFirst("webhook:".count))) else {
                throw ConfigurationError(
                    variable: name, problem: "webhook: must be followed by an endpoint id (latchctl webhooks list)")
            }
            return .webhook(endpointID: id)
        }
        switch choice {
        case "smtp":
            return try smtpTransport()
        case "files":
            guard let directory = raw("LATCH_MAIL_DIR") else {
                throw ConfigurationError(variable: "LATCH_MAIL_DIR", problem: "is required with LATCH_MAIL_TRANSPORT=files")
            }
            return .files(directory: directory)
        default:
            throw ConfigurationError(variable: name, problem: "must be smtp, files or webhook:<endpoint id>")
        }
    }

    private func smtpTransport() throws(ConfigurationError) -> LatchConfiguration.MailTransportSetting {
        guard let text = raw("LATCH_SMTP_URL") else {
            throw ConfigurationError(variable: "LATCH_SMTP_URL", problem: "is required with LATCH_MAIL_TRANSPORT=smtp")
        }
        guard let url = URL(string: text), ["smtp", "smtps"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError(variable: "LATCH_SMTP_URL", problem: "must be smtp://host:port or smtps://host:port")
        }
        return .smtp(url)
    }

    private func mailFrom() throws(ConfigurationError) -> String {
        let from = raw("LATCH_MAIL_FROM") ?? "no-reply@localhost"
        guard from.contains("@"), !from.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ConfigurationError(variable: "LATCH_MAIL_FROM", problem: "must be an email address without control characters")
        }
        return from
    }

    private func productName() throws(ConfigurationError) -> String {
        let name = raw("LATCH_PRODUCT_NAME") ?? "Latch"
        guard name.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ConfigurationError(variable: "LATCH_PRODUCT_NAME", problem: "must be at most 100 characters, no control characters")
        }
        return name
    }

    /// Only the shape here; whether templates exist in that language is checked when they are loaded.
    private func defaultLocale() throws(ConfigurationError) -> String {
        let locale = raw("LATCH_DEFAULT_LOCALE") ?? "en"
        let subtags = locale.split(separator: "-", omittingEmptySubsequences: false)
        let isTag = subtags.allSatisfy { !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
            && (subtags.first?.allSatisfy(\.isLetter) ?? false)
        guard isTag else {
            throw ConfigurationError(variable: "LATCH_DEFAULT_LOCALE", problem: "must be a language tag such as en, de or pt-BR")
        }
        return locale
    }

    private func linkBase() throws(ConfigurationError) -> URL {
        let text = raw("LATCH_LINK_BASE") ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
              url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/" else {
            throw ConfigurationError(
                variable: "LATCH_LINK_BASE", problem: "must be an http(s) origin without path or query, e.g. https://links.example.com")
        }
        return url
    }

    private func appScheme() throws(ConfigurationError) -> String {
        let scheme = raw("LATCH_APP_SCHEME") ?? "myapp"
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789+-.")
        guard let first = scheme.first, first.isLetter, first.isASCII, scheme.lowercased().allSatisfy(allowed.contains),
              !["http", "https", "javascript", "data", "file"].contains(scheme.lowercased()) else {
            throw ConfigurationError(variable: "LATCH_APP_SCHEME", problem: "must be a custom URL scheme such as myapp")
        }
        return scheme.lowercased()
    }

    /// The value of `name`, or the default its row in `ConfigurationLoader.variables` documents: one place for
    /// each default, the one operators read.
    private func valueOrDefault(_ name: String) throws(ConfigurationError) -> String {
        if let text = raw(name) { return text }
        guard let fallback = Self.variables.first(where: { $0.name == name })?.defaultValue else {
            throw ConfigurationError(variable: name, problem: "is required")
        }
        return fallback
    }

    /// A whole number whose default is documented in `ConfigurationLoader.variables`.
    private func integer(_ name: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        try integer(name, text: try valueOrDefault(name), range: range)
    }

    /// A whole number whose default is computed (from the cores, say) rather than documented as a value.
    private func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let text = raw(name) else { return value }
        return try integer(name, text: text, range: range)
    }

    private func integer(_ name: String, text: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw ConfigurationError(variable: name, problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private func duration(_ name: String) throws(ConfigurationError) -> TimeInterval {
        let text = try valueOrDefault(name)
        guard let seconds = DurationParser.seconds(text) else {
            throw ConfigurationError(variable: name, problem: "must be a duration such as 90s, 15m, 1h30m or 30d")
        }
        return seconds
    }

    /// `COUNT/DURATION`, e.g. `10/1m`.
    private func rate(_ name: String) throws(ConfigurationError) -> RateLimitRule {
        let text = try valueOrDefault(name)
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let limit = Int(parts[0].trimmingCharacters(in: .whitespaces)), limit > 0,
              let window = DurationParser.seconds(String(parts[1])) else {
            throw ConfigurationError(variable: name, problem: "must be COUNT/DURATION, e.g. 10/1m")
        }
        return RateLimitRule(limit: limit, window: window)
    }

    private func boolean(_ name: String) throws(ConfigurationError) -> Bool {
        switch try valueOrDefault(name).lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError(variable: name, problem: "must be true or false")
        }
    }

    private func list(_ name: String) -> [String] {
        (raw(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
